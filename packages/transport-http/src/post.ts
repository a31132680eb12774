import type { BodySource, HttpRequest, HttpResponse } from './edge.js';
import type { Awaitable, Connection, Endpoint, Principal } from '@rondo/core';
import { isRequest, type JsonRpcMessage } from '@rondo/protocol';
import type { ResolvedHttpOptions } from './options.js';
import { createPostExchange, quietExchange, type QuietExchange } from './postExchange.js';
import { headerValue, reject, replyEmpty, replyJson, storeDown } from './reply.js';
import { acceptsAll, isJsonContentType } from './security.js';
import { PeerRelay } from './peerRelay.js';
import type { Session, SessionRegistry } from './sessions.js';
import type { StreamBudget } from './streamBudget.js';
import { lookupSession, withSession } from './streams.js';

/** What a POST's Accept must allow (one array, so the Accept check can remember its answer). */
const POST_ACCEPTS: readonly string[] = ['application/json', 'text/event-stream'];

/** What the POST handler shares with the rest of the transport. */
export interface PostContext {
  endpoint: Endpoint;
  sessions: SessionRegistry;
  options: ResolvedHttpOptions;
  /** Responses of connections without a session that are still open, closed on shutdown. */
  open: Set<() => void>;
  /** The SSE responses open over the handler. */
  streams: StreamBudget;
}

/**
 * Handles one POST: checks the media types, reads and parses the body, then hands the message to
 * the session the `Mcp-Session-Id` names or to a fresh connection (every stateless POST, and the
 * message that makes its connection stateful, which then becomes a session). A message that needed
 * a session but came without one is answered by the endpoint like any other.
 */
export async function handlePost(
  req: HttpRequest,
  res: HttpResponse,
  body: BodySource,
  principal: Principal | undefined,
  client: string,
  context: PostContext,
): Promise<void> {
  if (!isJsonContentType(headerValue(req.headers, 'content-type'))) {
    return reject(res, 415, 'Unsupported Media Type: Content-Type must be application/json');
  }
  if (!acceptsAll(headerValue(req.headers, 'accept'), POST_ACCEPTS)) {
    return reject(
      res,
      406,
      'Not Acceptable: Accept must allow application/json and text/event-stream',
    );
  }
  const parsed = await body(context.options.maxBodyBytes);
  if (parsed === 'too-large') return reject(res, 413, 'Payload Too Large', { connection: 'close' });
  if (parsed === 'aborted') return;
  if (!parsed.ok) return replyJson(res, 400, parsed.error);
  const message = parsed.message;

  const sessionId = headerValue(req.headers, 'mcp-session-id');
  const caller = { principal, client };
  if (sessionId === undefined) return deliver(req, res, message, caller, context, undefined);
  const found = lookupSession(sessionId, res, principal, client, context.sessions);
  return withSession(found, (session) => deliver(req, res, message, caller, context, session));
}

/**
 * Hands the message to the session's connection, or to a fresh connection (every stateless POST,
 * and the message that makes its connection stateful, which then becomes a session).
 */
function deliver(
  req: HttpRequest,
  res: HttpResponse,
  message: JsonRpcMessage,
  { principal, client }: { principal: Principal | undefined; client: string },
  context: PostContext,
  session: Session | undefined,
): Awaitable<void> {
  session?.touch();
  const fresh = session ? undefined : new PeerRelay();
  const connection: Connection = session?.connection ?? context.endpoint.connect(fresh!);
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    context.open.delete(shutdown);
    if (fresh && !connection.stateful) connection.close();
  };
  const shutdown = (): void => {
    release();
    if (!res.writableEnded) res.end();
  };
  if (!isRequest(message))
    return notice(res, message, connection, session, quietExchange(req, principal, release));
  if (fresh) context.open.add(shutdown);
  const exchange = createPostExchange({
    req,
    res,
    connection,
    session,
    promote: () => {
      const relay = fresh ?? new PeerRelay();
      const created = context.sessions.create(connection, relay, principal?.id, client);
      // No room for the session: the connection that would have become it ends here.
      if (!created) connection.close();
      return created;
    },
    principal,
    client,
    options: context.options,
    streams: context.streams,
    done: release,
  });
  connection.receive(message, exchange);
}

/**
 * Notifications and responses are accepted as they are (202): nothing answers them on this POST.
 * In a session, one that nothing here waits for (a client's answer to a request another process
 * sent, a cancellation of a request another process runs) goes to the other processes, and a
 * change of the session's state (`notifications/initialized`) is saved, before the 202.
 */
function notice(
  res: HttpResponse,
  message: JsonRpcMessage,
  connection: Connection,
  session: Session | undefined,
  exchange: QuietExchange,
): Awaitable<void> {
  connection.receive(message, exchange);
  if (!session) return replyEmpty(res, 202);
  const forwarding =
    exchange.disposition === 'unclaimed'
      ? session.sharing.relay.forward(session.id, message)
      : undefined;
  const saving = session.persist();
  if (!forwarding && !saving) return replyEmpty(res, 202);
  return Promise.all([forwarding, saving]).then(
    () => replyEmpty(res, 202),
    (error: unknown) => storeDown(res, error),
  );
}
