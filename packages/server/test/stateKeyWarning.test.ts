import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createServer, inputRequired, serve, text, type ServeOptions } from '@rondo/server';

// The random-key warning is printed only where another process could be asked to open a state:
// a network transport, and a round that actually sealed one.

const modernCall = (id: number, name: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: {
    name,
    arguments: {},
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'state-key-test', version: '1.0.0' },
    },
  },
});

/** A server with no configured key, a one-shot tool and a tool that asks for a second round. */
function keylessServer(warnings: string[]) {
  return createServer({
    name: 'state-key',
    version: '1.0.0',
    log: (level, message) => void (level === 'warning' && warnings.push(message)),
  })
    .tool('once', {}, () => text('done'))
    .tool('twice', {}, (_args, ctx) =>
      ctx.round === 1 ? inputRequired([], { step: 1 }) : text('done'),
    );
}

async function callOverHttp(url: string, name: string): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify(modernCall(1, name)),
  });
  return response.json();
}

async function callOverWebSocket(url: string, name: string): Promise<unknown> {
  const socket = new WebSocket(url, 'mcp');
  await once(socket, 'open');
  socket.send(JSON.stringify(modernCall(1, name)));
  const [frame] = (await once(socket, 'message')) as [Buffer];
  socket.close();
  return JSON.parse(frame.toString('utf8'));
}

async function callOverStdio(warnings: string[], name: string): Promise<unknown> {
  const input = new PassThrough();
  const output = new PassThrough();
  const running = await serve(keylessServer(warnings), { transport: 'stdio', input, output });
  input.write(`${JSON.stringify(modernCall(1, name))}\n`);
  const [line] = (await once(output, 'data')) as [Buffer];
  input.end();
  await running.closed;
  return JSON.parse(line.toString('utf8'));
}

async function servedCall(
  transport: Exclude<ServeOptions['transport'], 'stdio'>,
  names: string[],
  host = '0.0.0.0',
): Promise<{ warnings: string[]; answers: unknown[] }> {
  const warnings: string[] = [];
  const running = await serve(keylessServer(warnings), { transport, port: 0, host });
  const call = transport === 'http' ? callOverHttp : callOverWebSocket;
  const answers: unknown[] = [];
  try {
    const url = running.url.replace('//0.0.0.0:', '//127.0.0.1:');
    for (const name of names) answers.push(await call(url, name));
  } finally {
    await running.close();
  }
  return { warnings, answers };
}

describe('the random requestState key warning', () => {
  let saved: string | undefined;
  beforeAll(() => {
    saved = process.env.RONDO_STATE_KEY;
    delete process.env.RONDO_STATE_KEY;
  });
  afterAll(() => {
    if (saved !== undefined) process.env.RONDO_STATE_KEY = saved;
  });

  it('stays quiet over stdio, even when a round seals a state', async () => {
    const warnings: string[] = [];
    expect(await callOverStdio(warnings, 'twice')).toMatchObject({
      result: { resultType: 'input_required', requestState: expect.any(String) },
    });
    expect(warnings).toEqual([]);
  });

  it.each(['http', 'ws'] as const)(
    'stays quiet over %s while no round seals a state',
    async (transport) => {
      const { warnings, answers } = await servedCall(transport, ['once']);
      expect(answers[0]).toMatchObject({ result: { content: [{ text: 'done' }] } });
      expect(warnings).toEqual([]);
    },
  );

  it.each(['http', 'ws'] as const)(
    'warns once over %s at the first sealed state, saying how to fix it',
    async (transport) => {
      const { warnings, answers } = await servedCall(transport, ['twice', 'twice']);
      expect(answers[1]).toMatchObject({ result: { resultType: 'input_required' } });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('random per-process key');
      expect(warnings[0]).toContain('RONDO_STATE_KEY');
      expect(warnings[0]).toContain('requestState: { key }');
      expect(warnings[0]).toContain('RONDO_STATE_KEYS');
    },
  );

  // Issue 29: `serve(server, { transport: 'http' })` on a laptop is one process nobody balances.
  it('stays quiet over http bound to loopback, a local dev server, even when a round seals a state', async () => {
    const { warnings, answers } = await servedCall('http', ['twice'], '127.0.0.1');
    expect(answers[0]).toMatchObject({ result: { resultType: 'input_required' } });
    expect(warnings).toEqual([]);
  });

  it('stays quiet over http when a key is configured', async () => {
    process.env.RONDO_STATE_KEY = 'state-key-warning-test-0123456789abcdef';
    try {
      const { warnings } = await servedCall('http', ['twice']);
      expect(warnings).toEqual([]);
    } finally {
      delete process.env.RONDO_STATE_KEY;
    }
  });
});
