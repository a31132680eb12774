import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { serve, type ServeEras } from '@rondo/server';
import { transpileExample } from '@rondo/test-support/readmeExample';
import { WsClientTransport } from '../../../test/ws/support/wsClientTransport.js';
import {
  connectLegacy,
  connectLegacyV2,
  connectModern,
  greeterServer,
  greeting,
} from './support/clients.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** How the pinned v2 client fails against an endpoint without the modern era. */
const NOT_OFFERED = /did not offer pinned protocol version 2026-07-28/;

/** A greeter server served by the facade on `transport`, closed (server too) when the scope ends. */
async function servedGreeter(transport: 'http' | 'ws', eras?: ServeEras) {
  const running = await serve(greeterServer(), { transport, ...(eras ? { eras } : {}) });
  return { url: running.url, [Symbol.asyncDispose]: () => running.close() };
}

/** Spawn parameters for the official stdio client transports: `examples/greeter.ts` on stdio. */
function greeterProcess() {
  const example = readFileSync(`${packageDir}examples/greeter.ts`, 'utf8');
  return {
    command: process.execPath,
    args: ['--input-type=module', '-e', transpileExample(example)],
    cwd: packageDir,
    env: {
      PATH: process.env.PATH ?? '',
      TRANSPORT: 'stdio',
      RONDO_STATE_KEY: 'facade-stdio-key-0123456789abcdef0123456',
    },
    stderr: 'pipe' as const,
  };
}

/** Collects what a stdio client transport's server process writes on stderr. */
function stderrOf(transport: { readonly stderr: unknown }): () => string {
  let written = '';
  const stream = transport.stderr as NodeJS.ReadableStream | null;
  stream?.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
  return () => written;
}

/** What the example's middleware logged for calls of `tool`, as `<era> <method>` lines. */
function logged(stderr: string, tool: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => line.endsWith(` ${tool}`))
    .map((line) => line.replace(/^greeter: /, '').replace(` ${tool}`, ''));
}

/** The JSON-RPC code an official client's rejected call carries. */
async function codeOf(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
    return undefined;
  } catch (failure) {
    return (failure as { code?: unknown }).code;
  }
}

describe('the README server (middleware refusing one tool) over stdio, in a child process', () => {
  it('answers the official v2 client in the modern era (2026-07-28), refusing shout', async () => {
    const transport = new ModernStdioTransport(greeterProcess());
    const stderr = stderrOf(transport);
    const client = await connectModern(transport);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect(await greeting(client, 'Ada')).toBe('Hello, Ada!');
      expect(await codeOf(client.callTool({ name: 'shout' }))).toBe(-32602);
    } finally {
      await client.close();
    }
    expect(logged(stderr(), 'greet')).toEqual(['modern tools/call']);
    expect(logged(stderr(), 'shout')).toEqual(['modern tools/call']);
  });

  it('answers the official v1 SDK client in the legacy era (2025-11-25), refusing shout', async () => {
    const transport = new LegacyStdioTransport(greeterProcess());
    const stderr = stderrOf(transport);
    const client = await connectLegacy(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'greeter' });
      expect(await greeting(client, 'Grace')).toBe('Hello, Grace!');
      expect(await codeOf(client.callTool({ name: 'shout' }))).toBe(-32602);
    } finally {
      await client.close();
    }
    expect(stderr()).toContain('greeter: legacy initialize');
    expect(logged(stderr(), 'greet')).toEqual(['legacy tools/call']);
    expect(logged(stderr(), 'shout')).toEqual(['legacy tools/call']);
  });
});

describe('serve(server) over Streamable HTTP', () => {
  it('serves both eras by default', async () => {
    await using served = await servedGreeter('http');
    const modern = await connectModern(new ModernHttpTransport(new URL(served.url)));
    const legacy = await connectLegacy(new LegacyHttpTransport(new URL(served.url)));
    try {
      expect(modern.getProtocolEra()).toBe('modern');
      expect(await greeting(modern, 'Ada')).toBe('Hello, Ada!');
      expect(legacy.getServerVersion()).toMatchObject({ name: 'greeter' });
      expect(await greeting(legacy, 'Grace')).toBe('Hello, Grace!');
    } finally {
      await Promise.all([modern.close(), legacy.close()]);
    }
  });

  it('leaves the legacy era out with eras.legacy false', async () => {
    await using served = await servedGreeter('http', { legacy: false });
    await expect(connectLegacy(new LegacyHttpTransport(new URL(served.url)))).rejects.toThrow(
      /Method not found: initialize/,
    );
    const modern = await connectModern(new ModernHttpTransport(new URL(served.url)));
    expect(await greeting(modern, 'Ada')).toBe('Hello, Ada!');
    await modern.close();
  });

  it('leaves the modern era out with eras.modern false', async () => {
    await using served = await servedGreeter('http', { modern: false });
    await expect(connectModern(new ModernHttpTransport(new URL(served.url)))).rejects.toThrow(
      NOT_OFFERED,
    );
    const legacy = await connectLegacy(new LegacyHttpTransport(new URL(served.url)));
    expect(await greeting(legacy, 'Grace')).toBe('Hello, Grace!');
    await legacy.close();
  });
});

describe('serve(server) over WebSocket', () => {
  it('serves both eras by default', async () => {
    await using served = await servedGreeter('ws');
    const modern = await connectModern(new WsClientTransport(served.url));
    const legacy = await connectLegacyV2(new WsClientTransport(served.url));
    try {
      expect(modern.getProtocolEra()).toBe('modern');
      expect(await greeting(modern, 'Ada')).toBe('Hello, Ada!');
      expect(legacy.getProtocolEra()).toBe('legacy');
      expect(await greeting(legacy, 'Grace')).toBe('Hello, Grace!');
    } finally {
      await Promise.all([modern.close(), legacy.close()]);
    }
  });

  it('leaves the modern era out with eras.modern false', async () => {
    await using served = await servedGreeter('ws', { modern: false });
    await expect(connectModern(new WsClientTransport(served.url))).rejects.toThrow(NOT_OFFERED);
    const legacy = await connectLegacyV2(new WsClientTransport(served.url));
    expect(await greeting(legacy, 'Grace')).toBe('Hello, Grace!');
    await legacy.close();
  });
});

describe('era options', () => {
  const post = (url: string, body: object, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...body }),
    }).then((response) => response.json() as Promise<{ result?: Record<string, unknown> }>);

  it('hands eras.legacy to legacyEra: a revision left out is not offered', async () => {
    await using served = await servedGreeter('http', { legacy: { revisions: ['2025-06-18'] } });
    const answer = await post(served.url, {
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'facade-test', version: '1.0.0' },
      },
    });
    expect(answer.result).toMatchObject({ protocolVersion: '2025-06-18' });
  });

  it('hands eras.modern to modernEra: its extensions are announced in server/discover', async () => {
    const extension = { 'example.com/greetings': { languages: ['en'] } };
    await using served = await servedGreeter('http', { modern: { extensions: extension } });
    const answer = await post(
      served.url,
      {
        method: 'server/discover',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
    );
    expect(JSON.stringify(answer.result)).toContain('example.com/greetings');
  });
});
