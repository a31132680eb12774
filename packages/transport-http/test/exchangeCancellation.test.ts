import { EventEmitter } from 'node:events';
import { describeCancellationContract } from '@rondo/test-support/cancellationContract';
import { createPostExchange, type PostExchangeContext } from '../src/postExchange.js';

/** A response whose client can go away (`close`), and the context of a sessionless POST on it. */
function sessionlessPost(): { context: PostExchangeContext; closed: () => void } {
  const events = new EventEmitter();
  const res = {
    statusCode: 200,
    headersSent: false,
    destroyed: false,
    writableEnded: false,
    setHeader: () => undefined,
    writeHead: () => undefined,
    flushHeaders: () => undefined,
    write: () => true,
    end: () => undefined,
    once: (event: 'close', listener: () => void) => events.once(event, listener),
  };
  const context = {
    req: { method: 'POST', headers: {}, socket: { remoteAddress: '127.0.0.1' } },
    res,
    connection: { stateful: false, inFlight: 1, receive: () => undefined, close: () => undefined },
    session: undefined,
    promote: () => undefined,
    principal: undefined,
    client: '127.0.0.1',
    // Read only when the request answers or streams, which these tests never reach.
    options: {} as PostExchangeContext['options'],
    streams: {} as PostExchangeContext['streams'],
    done: () => undefined,
  } satisfies PostExchangeContext;
  return { context, closed: () => void events.emit('close') };
}

// Without a session, the client closing the response is the cancellation of the POSTed request.
describeCancellationContract(
  "a POSTed request's exchange, when its client closes the response",
  () => {
    const { context, closed } = sessionlessPost();
    const exchange = createPostExchange(context);
    return { cancellation: exchange.cancellation, abort: () => closed() };
  },
);
