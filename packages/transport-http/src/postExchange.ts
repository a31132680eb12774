import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Connection, Exchange, Principal } from '@rondo/core';
import { httpStatusForError, type JsonRpcMessage } from '@rondo/protocol';
import type { ResolvedHttpOptions } from './options.js';
import { replyEmpty, replyJson } from './reply.js';
import type { Session } from './sessions.js';
import type { SessionStream } from './sessionStream.js';
import { SseResponse } from './sse.js';

/** What the exchange of one POSTed request needs to know. */
export interface PostExchangeContext {
  req: IncomingMessage;
  res: ServerResponse;
  connection: Connection;
  /** The session the POST named, if any. */
  session: Session | undefined;
  /** Registers a session for a fresh connection that became stateful (legacy `initialize`). */
  promote(): Session;
  principal: Principal | undefined;
  options: ResolvedHttpOptions;
  /** Called once the response is complete or the client went away. */
  done(): void;
}

/**
 * The exchange of one POSTed request: answered as one JSON body, or as an SSE stream from the
 * first message sent before the final one. Without a session, the client closing the response is
 * the cancellation (the exchange's signal aborts); in a session, a dropped stream is no
 * cancellation: its events stay in the event store for a `Last-Event-ID` resumption.
 */
export function createPostExchange(context: PostExchangeContext): Exchange {
  const { res, options } = context;
  const controller = new AbortController();
  let session = context.session;
  let sse: SseResponse | undefined;
  let stream: SessionStream | undefined;
  let ended = false;

  const sessionHeaders = (): Record<string, string> => {
    if (!session && context.connection.stateful) session = context.promote();
    return session ? { 'mcp-session-id': session.id } : {};
  };
  const startStream = (): void => {
    sse = new SseResponse(res, sessionHeaders(), options.keepAliveMs);
    if (session) {
      stream = session.openStream();
      stream.attach(sse);
      stream.prime(options.sseRetryMs);
    }
  };
  const write = (message: JsonRpcMessage): void => {
    if (stream) stream.write(message);
    else sse?.write({ message });
  };
  const finish = (): void => {
    if (stream) {
      stream.finish();
      session?.streamFinished(stream);
    } else {
      sse?.end();
    }
    context.done();
  };

  res.once('close', () => {
    if (ended) return;
    if (!session) controller.abort(new Error('The client closed the response'));
    if (!stream) context.done();
  });

  return {
    send(message) {
      if (ended) return;
      if (!sse) startStream();
      write(message);
    },
    end(message) {
      if (ended) return;
      ended = true;
      if (sse) {
        if (message) write(message);
        finish();
        return;
      }
      // A microtask later: an adapter may mark its connection stateful right after answering
      // `initialize`, and the session id must go out with that answer.
      queueMicrotask(() => {
        const headers = sessionHeaders();
        if (!message) replyEmpty(res, 202, headers);
        else replyJson(res, session ? 200 : statusOf(message), message, headers);
        context.done();
      });
    },
    signal: controller.signal,
    headers: context.req.headers,
    ...(context.principal ? { principal: context.principal } : {}),
  };
}

/** The status of a final message outside a session: from its error code, 200 for a result. */
function statusOf(message: JsonRpcMessage): number {
  return 'error' in message ? httpStatusForError(message.error) : 200;
}

/** The exchange of a notification or response: it has no answer to carry. */
export function quietExchange(
  req: IncomingMessage,
  principal: Principal | undefined,
  ended: () => void,
): Exchange {
  return {
    send: () => undefined,
    end: ended,
    signal: new AbortController().signal,
    headers: req.headers,
    ...(principal ? { principal } : {}),
  };
}
