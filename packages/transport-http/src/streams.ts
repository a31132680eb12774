import type { HttpRequest, HttpResponse } from './edge.js';
import type { Awaitable, Principal } from '@rondo/core';
import type { ResolvedHttpOptions } from './options.js';
import { headerValue, reject, replyEmpty, storeDown } from './reply.js';
import { acceptsAll } from './security.js';
import type { Resumption } from './session.js';
import type { Session, SessionRegistry } from './sessions.js';
import { SseResponse } from './sse.js';
import type { StreamBudget } from './streamBudget.js';

const ONLY_POST = { allow: 'POST' };
/** What a GET's Accept must allow (one array, so the Accept check can remember its answer). */
const GET_ACCEPTS: readonly string[] = ['text/event-stream'];

/**
 * GET on a session: opens its standalone SSE stream (session-wide messages), or with
 * `Last-Event-ID` resumes the stream that event belongs to. The standalone stream has one response
 * at a time: a second GET for it while the first is open gets 409; a POST stream's resumption
 * replaces its dropped response. Past `maxOpenStreams` a GET gets 503 with `Retry-After`. Without
 * a session there is nothing to stream: 405, as on an endpoint without sessions.
 */
export function handleGet(
  req: HttpRequest,
  res: HttpResponse,
  principal: Principal | undefined,
  client: string,
  context: { sessions: SessionRegistry; options: ResolvedHttpOptions; streams: StreamBudget },
): Awaitable<void> {
  return withSession(sessionOf(req, res, principal, client, context.sessions), (session) =>
    streamSession(req, res, session, client, context),
  );
}

function streamSession(
  req: HttpRequest,
  res: HttpResponse,
  session: Session,
  client: string,
  context: { options: ResolvedHttpOptions; streams: StreamBudget },
): Awaitable<void> {
  const { options, streams } = context;
  if (!acceptsAll(headerValue(req.headers, 'accept'), GET_ACCEPTS)) {
    return reject(res, 406, 'Not Acceptable: Accept must allow text/event-stream');
  }
  const lastEventId = headerValue(req.headers, 'last-event-id');
  if (lastEventId && !options.eventStore) {
    return reject(res, 400, 'Bad Request: this server does not keep events for resumption');
  }
  const full = streams.refusal(client);
  if (full !== undefined) {
    return reject(res, 503, `Service Unavailable: ${full}`, {
      'retry-after': String(options.sessionRetryAfterSeconds),
    });
  }
  session.touch();
  const open = (): SseResponse => {
    streams.track(res, client);
    return new SseResponse(res, { 'mcp-session-id': session.id }, options);
  };
  if (!lastEventId) {
    if (session.standalone.attached) return rejectSecondStream(res);
    return session.standalone.attach(open());
  }
  const answer = (resumed: Resumption): void => {
    if (resumed === 'conflict') rejectSecondStream(res);
    if (resumed === 'unknown')
      reject(res, 400, `Bad Request: unknown Last-Event-ID "${lastEventId}"`);
  };
  const resumed = session.resume(lastEventId, open);
  if (resumed instanceof Promise)
    return resumed.then(answer, (error: unknown) => storeDown(res, error));
  answer(resumed);
}

/** A session has one standalone stream at a time; the open one keeps it (409, as the MCP SDK). */
function rejectSecondStream(res: HttpResponse): void {
  reject(res, 409, 'Conflict: this session already has an open standalone SSE stream');
}

/** DELETE on a session ends it; without a session: 405. */
export function handleDelete(
  req: HttpRequest,
  res: HttpResponse,
  principal: Principal | undefined,
  client: string,
  sessions: SessionRegistry,
): Awaitable<void> {
  return withSession(sessionOf(req, res, principal, client, sessions), (session) =>
    session.end().then(
      () => replyEmpty(res, 204),
      (error: unknown) => storeDown(res, error),
    ),
  );
}

/** The session a GET or DELETE names; answers 405 (none named) or the lookup's refusal itself. */
function sessionOf(
  req: HttpRequest,
  res: HttpResponse,
  principal: Principal | undefined,
  client: string,
  sessions: SessionRegistry,
): Awaitable<Session | undefined> {
  const id = headerValue(req.headers, 'mcp-session-id');
  if (id !== undefined) return lookupSession(id, res, principal, client, sessions);
  reject(res, 405, `Method Not Allowed: ${req.method ?? ''} needs an Mcp-Session-Id`, ONLY_POST);
  return undefined;
}

/**
 * The live session `id` names, if the request may use it: 404 for an unknown or ended session (or
 * another principal's). What the request's headers say about revisions is the era's to judge.
 */
export function lookupSession(
  id: string,
  res: HttpResponse,
  principal: Principal | undefined,
  /** Who asks (see `clientOf`): a session rebuilt here from the store is counted as theirs. */
  client: string,
  sessions: SessionRegistry,
): Awaitable<Session | undefined> {
  const check = (session: Session | undefined): Session | undefined => {
    if (session && session.principalId === principal?.id) return session;
    reject(res, 404, 'Session not found');
    return undefined;
  };
  // A store in memory answers at once: no await on the hot path.
  const found = sessions.fetch(id, client);
  if (!(found instanceof Promise)) return check(found);
  return found.then(check, (error: unknown) => {
    storeDown(res, error);
    return undefined;
  });
}

/** Runs `then` with the session once it is found (at once when the lookup was synchronous). */
export function withSession(
  found: Awaitable<Session | undefined>,
  then: (session: Session) => Awaitable<void>,
): Awaitable<void> {
  if (found instanceof Promise)
    return found.then((session) => (session ? then(session) : undefined));
  return found ? then(found) : undefined;
}
