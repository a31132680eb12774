import { createServer as createHttpServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Connection, Endpoint, Exchange, Peer } from '@rondo/core';
import { MessageChannel } from '@rondo/core/internal';
import { listenOn } from '@rondo/core/node';
import type { JsonRpcMessage } from '@rondo/protocol';

/** An endpoint whose one connection answers each request with `{ echo: method }`, or throws. */
function echoEndpoint(options: { throws?: boolean } = {}) {
  const seen: { peer?: Peer; closed: number } = { closed: 0 };
  const connection: Connection = {
    stateful: false,
    inFlight: 0,
    receive(message: JsonRpcMessage, exchange: Exchange) {
      if (options.throws) throw new Error('receive failed');
      if ('method' in message && 'id' in message)
        exchange.end({ jsonrpc: '2.0', id: message.id, result: { echo: message.method } });
      else exchange.end();
    },
    close: () => void seen.closed++,
  };
  const endpoint: Endpoint = {
    connect(peer) {
      seen.peer = peer;
      return connection;
    },
    ready: async () => undefined,
    close: async () => undefined,
  };
  return { endpoint, seen };
}

describe('MessageChannel', () => {
  it('parses a frame and writes the answer of its exchange on the channel', () => {
    const written: JsonRpcMessage[] = [];
    const channel = new MessageChannel(echoEndpoint().endpoint, { write: (m) => written.push(m) });
    channel.receiveText('{"jsonrpc":"2.0","id":7,"method":"ping"}');
    expect(written).toEqual([{ jsonrpc: '2.0', id: 7, result: { echo: 'ping' } }]);
    expect(channel.exchanges.size).toBe(0);
  });

  it('answers a frame that is not JSON with -32700 and id null', () => {
    const written: JsonRpcMessage[] = [];
    const channel = new MessageChannel(echoEndpoint().endpoint, { write: (m) => written.push(m) });
    channel.receiveText('{not json');
    expect(written).toMatchObject([{ id: null, error: { code: -32700 } }]);
  });

  it('answers a request whose connection threw with -32603, and reports the failure', () => {
    const written: JsonRpcMessage[] = [];
    const failures: Error[] = [];
    const channel = new MessageChannel(echoEndpoint({ throws: true }).endpoint, {
      write: (m) => written.push(m),
      onReceiveFailure: (failure) => failures.push(failure),
    });
    channel.receiveText('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    channel.receiveText('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    expect(written).toMatchObject([{ id: 1, error: { code: -32603 } }]);
    expect(failures.map((failure) => failure.message)).toEqual([
      'receive failed',
      'receive failed',
    ]);
  });

  it("gives the connection's own messages to the channel, and closes the connection once", () => {
    const written: JsonRpcMessage[] = [];
    const { endpoint, seen } = echoEndpoint();
    const channel = new MessageChannel(endpoint, { write: (m) => written.push(m) });
    seen.peer?.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect(written).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
    channel.close();
    channel.close();
    expect(seen.closed).toBe(1);
  });
});

describe('listenOn', () => {
  it('listens on a free port and closes, cutting open connections', async () => {
    const server = createHttpServer((_request, response) => response.end('ok'));
    const listening = await listenOn(server, 0, '127.0.0.1');
    expect(listening.urlHost).toBe('127.0.0.1');
    const response = await fetch(`http://127.0.0.1:${listening.port}/`);
    expect(await response.text()).toBe('ok');
    await listening.close();
    expect(server.listening).toBe(false);
  });

  it('rejects with the listen error', async () => {
    const first = await listenOn(createHttpServer(), 0, '127.0.0.1');
    try {
      await expect(listenOn(createHttpServer(), first.port, '127.0.0.1')).rejects.toThrow(
        /EADDRINUSE/,
      );
    } finally {
      await first.close();
    }
  });

  it('brackets an IPv6 host for URLs', async () => {
    const listening = await listenOn(createHttpServer(), 0, '::1').catch(() => undefined);
    if (!listening) return; // no IPv6 loopback on this machine
    expect(listening.urlHost).toBe('[::1]');
    await listening.close();
  });
});
