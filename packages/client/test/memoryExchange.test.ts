import type { Endpoint, Exchange } from '@rondo/core';
import { describeCancellationContract } from '@rondo/test-support/cancellationContract';
import { inMemoryTransport } from '../src/index.js';

// The in-memory transport's exchange is aborted when the client closes the transport: the server
// can no longer reach it.
describeCancellationContract(
  "an in-memory transport's exchange, when the client closes",
  async () => {
    let received: Exchange | undefined;
    const endpoint: Endpoint = {
      connect: () => ({
        stateful: false,
        inFlight: 0,
        receive: (_message, exchange) => void (received = exchange),
        close: () => undefined,
      }),
      ready: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
    const transport = inMemoryTransport(endpoint);
    await transport.start({
      receive: () => undefined,
      refused: () => undefined,
      closed: () => undefined,
    });
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    if (!received) throw new Error('the endpoint received nothing');
    return { cancellation: received.cancellation, abort: () => void transport.close() };
  },
);
