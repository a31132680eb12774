import type { Exchange, Peer } from '@rondo/core';
import {
  RequestCall,
  assertClientCanAnswer,
  readInputResponse,
  type CallSetup,
  type ClientAsker,
} from '@rondo/core/internal';
import {
  isPlainObject,
  isValidId,
  type InputRequestBody,
  type InputResponseValue,
  type JsonRpcRequest,
  type RequestId,
} from '@rondo/protocol';
import { inputRequestForRevision } from './inputRequests.js';
import { chooseRevision } from './negotiation.js';
import type { SessionState } from './sessionState.js';

/**
 * Sends one input request to the client as a real server-to-client request on the call's channel
 * and reads the answer with the core's reader (checked against the request, as on the modern
 * wire). Refuses (before sending) what the client did not declare at initialize.
 */
export async function askClient(
  state: SessionState,
  call: RequestCall,
  body: InputRequestBody,
  key: string = body.kind,
): Promise<InputResponseValue> {
  const { revision, clientCapabilities } = state.session;
  assertClientCanAnswer([{ request: body }], clientCapabilities);
  const wire = inputRequestForRevision(body, revision);
  const result = await state.clientRequests.request(wire, call);
  return readInputResponse(key, body, result);
}

/** Opens the call of one admitted legacy request: the session's facts are its context. */
export function openCall(
  state: SessionState,
  request: JsonRpcRequest,
  exchange: Exchange,
  peer: Peer,
): RequestCall {
  const setup = state.negotiated ? setupOf(state, peer) : handshakeSetup(state, request, peer);
  return new RequestCall(request, exchange, setup, progressTokenOf(request.params));
}

/** Before `initialize` succeeded: the revision is the one the client asks for, as negotiated. */
function handshakeSetup(state: SessionState, request: JsonRpcRequest, peer: Peer): CallSetup {
  const requested = request.params?.protocolVersion;
  const revision = chooseRevision(
    typeof requested === 'string' ? requested : '',
    state.options.revisions,
  );
  return { ...setupOf(state, peer), revision };
}

/** The call setup of a session, built once per negotiation rather than once per request. */
function setupOf(state: SessionState, peer: Peer): CallSetup {
  const negotiated = state.negotiated;
  if (state.setup !== undefined && state.setupFor === negotiated) return state.setup;
  state.setupFor = negotiated;
  state.setup = {
    era: 'legacy',
    revision: negotiated?.revision ?? state.options.revisions[0]!,
    clientCapabilities: negotiated?.clientCapabilities ?? {},
    clientInfo: negotiated?.clientInfo,
    logThreshold: () => state.logLevel,
    asker: state.asker,
    // Once a request is answered, what still concerns it (a withdrawn client request) goes to the
    // session's own channel.
    afterAnswer: (message) => peer.send(message),
    closeSessionStream: () => peer.closeStream?.(),
  };
  return state.setup;
}

/** `ctx.elicit` and friends on the legacy wire: real server-to-client requests. */
export function sessionAsker(state: SessionState): ClientAsker {
  return { ask: (body, call) => askClient(state, call, body) };
}

function progressTokenOf(params: Record<string, unknown> | undefined): RequestId | undefined {
  const meta = params?._meta;
  const token = isPlainObject(meta) ? meta.progressToken : undefined;
  return isValidId(token) ? token : undefined;
}
