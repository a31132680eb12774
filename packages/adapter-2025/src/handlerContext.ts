import type { Exchange, LogLevel, Peer } from '@rondo/core';
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
  type JsonObject,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type RequestId,
} from '@rondo/protocol';
import { inputRequestForRevision } from './inputRequests.js';
import { chooseRevision } from './negotiation.js';
import type { ServedLegacyRevision } from './options.js';
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

/**
 * What every request of a session shares: its facts, and how its handlers log, ask the client
 * and reach the session's own channel. A class with methods rather than an object of closures,
 * since every live session keeps one.
 */
class SessionSetup implements CallSetup, ClientAsker {
  readonly era = 'legacy';

  constructor(
    private readonly state: SessionState,
    private readonly peer: Peer,
    readonly revision: ServedLegacyRevision,
    readonly clientCapabilities: JsonObject,
    readonly clientInfo: { name: string; version: string } | undefined,
  ) {}

  get asker(): ClientAsker {
    return this;
  }

  ask(body: InputRequestBody, call: RequestCall): Promise<InputResponseValue> {
    return askClient(this.state, call, body);
  }

  logThreshold(): LogLevel | 'off' {
    return this.state.logLevel;
  }

  /** Once a request is answered, what still concerns it (a withdrawn client request) goes to the session's own channel. */
  afterAnswer(message: JsonRpcMessage): void {
    this.peer.send(message);
  }

  closeSessionStream(): void {
    this.peer.closeStream?.();
  }
}

/** Before `initialize` succeeded: the revision is the one the client asks for, as negotiated. */
function handshakeSetup(state: SessionState, request: JsonRpcRequest, peer: Peer): CallSetup {
  const requested = request.params?.protocolVersion;
  const revision = chooseRevision(
    typeof requested === 'string' ? requested : '',
    state.options.revisions,
  );
  return new SessionSetup(state, peer, revision, NO_CAPABILITIES, undefined);
}

/** The call setup of a session, built once per negotiation rather than once per request. */
function setupOf(state: SessionState, peer: Peer): CallSetup {
  const negotiated = state.session;
  if (state.setup !== undefined && state.setupFor === negotiated) return state.setup;
  state.setupFor = negotiated;
  state.setup = new SessionSetup(
    state,
    peer,
    negotiated.revision,
    negotiated.clientCapabilities,
    negotiated.clientInfo,
  );
  return state.setup;
}

const NO_CAPABILITIES: JsonObject = Object.freeze({});

function progressTokenOf(params: Record<string, unknown> | undefined): RequestId | undefined {
  const meta = params?._meta;
  const token = isPlainObject(meta) ? meta.progressToken : undefined;
  return isValidId(token) ? token : undefined;
}
