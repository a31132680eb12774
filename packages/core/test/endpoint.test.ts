import { describe, expect, it } from 'vitest';
import { MetaKey, resultResponse, isRequest, type JsonRpcMessage } from '@rondo/protocol';
import { createEndpoint, createServer, type EraAdapter, type EraSession } from '@rondo/core';
import { MemoryConnection } from '@rondo/test-support/memoryConnection';

/** An adapter that answers every request with its era's name, and becomes stateful on initialize. */
function namedEra(
  era: 'legacy' | 'modern',
  opened: string[],
  told: (readonly string[])[] = [],
): EraAdapter {
  return {
    era,
    revisions: era === 'legacy' ? ['2025-11-25', '2025-06-18'] : ['2026-07-28'],
    open(_server, _peer, endpoint): EraSession {
      opened.push(era);
      told.push(endpoint.revisions);
      let stateful = false;
      return {
        get stateful() {
          return stateful;
        },
        inFlight: 0,
        receive(message: JsonRpcMessage, exchange) {
          if ('method' in message && message.method === 'initialize') stateful = true;
          exchange.end(isRequest(message) ? resultResponse(message.id, { era }) : undefined);
        },
        close() {},
      };
    },
  };
}

const modernMeta = {
  _meta: { [MetaKey.protocolVersion]: '2026-07-28', [MetaKey.clientCapabilities]: {} },
};

describe('createEndpoint routing', () => {
  function setup() {
    const opened: string[] = [];
    const told: (readonly string[])[] = [];
    const server = createServer({
      name: 's',
      version: '1',
      log: () => undefined,
      requestState: { key: 'k-key-0123456789abcdef0123456789abcdef' },
    });
    const endpoint = createEndpoint(server, {
      modern: namedEra('modern', opened, told),
      legacy: namedEra('legacy', opened, told),
    });
    return { opened, told, conn: new MemoryConnection(endpoint) };
  }

  it('tells every era each revision the endpoint serves, modern first', async () => {
    const { conn, told } = setup();
    await conn.request('tools/list', modernMeta);
    await conn.request('initialize', {});
    expect(told).toEqual([
      ['2026-07-28', '2025-11-25', '2025-06-18'],
      ['2026-07-28', '2025-11-25', '2025-06-18'],
    ]);
  });

  it('sends a message with a modern _meta to the modern era', async () => {
    const { conn } = setup();
    expect(await conn.request('tools/list', modernMeta)).toMatchObject({
      result: { era: 'modern' },
    });
  });

  it('sends initialize to the legacy era and binds the connection to it', async () => {
    const { conn } = setup();
    expect(await conn.request('initialize', {})).toMatchObject({ result: { era: 'legacy' } });
    expect(conn.connection.stateful).toBe(true);
    expect(await conn.request('tools/list')).toMatchObject({ result: { era: 'legacy' } });
  });

  it('still serves modern messages on a connection with a legacy session', async () => {
    const { conn } = setup();
    await conn.request('initialize', {});
    expect(await conn.request('server/discover', modernMeta)).toMatchObject({
      result: { era: 'modern' },
    });
  });

  it('sends a message without _meta to the modern era until a legacy session exists', async () => {
    const { conn } = setup();
    expect(await conn.request('server/discover', {})).toMatchObject({ result: { era: 'modern' } });
    expect(await conn.request('ping')).toMatchObject({ result: { era: 'modern' } });
  });

  it('opens each era at most once per connection, and only when used', async () => {
    const { conn, opened } = setup();
    await conn.request('tools/list', modernMeta);
    await conn.request('tools/list', modernMeta);
    expect(opened).toEqual(['modern']);
  });

  it('ends the exchange when no era can take the message', async () => {
    const server = createServer({
      name: 's',
      version: '1',
      log: () => undefined,
      requestState: { key: 'k-key-0123456789abcdef0123456789abcdef' },
    });
    const conn = new MemoryConnection(createEndpoint(server, {}));
    expect(await conn.send({ jsonrpc: '2.0', id: 1, method: 'x' }).ended).toBeUndefined();
  });
});
