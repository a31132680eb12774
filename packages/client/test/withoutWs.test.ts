import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';

const run = promisify(execFile);
const packageDir = join(import.meta.dirname, '..');
const repoRoot = join(packageDir, '..', '..');

// A resolve hook that makes `ws` unresolvable, as in a project that never installed the optional
// peer: the same ERR_MODULE_NOT_FOUND Node throws then.
const WITHOUT_WS = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
export async function resolve(specifier, context, next) {
  if (specifier === 'ws' || specifier.startsWith('ws/')) {
    const error = new Error("Cannot find package 'ws' imported from " + context.parentURL);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}\`));
`)}`;

/** The README's first server, run over stdio by the client's child. */
const SERVER = `
import { z } from 'zod';
import { createServer, serve, text } from '@rondo/server';
const server = createServer({ name: 'calculator', version: '1.0.0' }).tool(
  'add',
  { description: 'Adds two numbers', input: z.object({ a: z.number(), b: z.number() }) },
  ({ a, b }) => text(String(a + b)),
);
await serve(server, { transport: 'stdio' });
`;

const CLIENT = `
const missing = await import('ws').then(() => 'ws resolved', (error) => error.code);
console.log('ws:', missing);
const { Client } = await import('@rondo/client');
const { stdioTransport, webSocketTransport } = await import('@rondo/client/node');
const client = new Client({
  transport: stdioTransport({
    command: process.execPath,
    args: ['--input-type=module', '-e', ${JSON.stringify(SERVER)}],
    cwd: ${JSON.stringify(repoRoot)},
  }),
});
await client.connect();
const result = await client.callTool('add', { a: 2, b: 3 });
console.log('add:', result.content[0]?.text);
await client.close();
const socket = new Client({ transport: webSocketTransport({ url: 'ws://127.0.0.1:9/' }) });
await socket.connect().then(
  () => console.log('websocket: connected'),
  (error) => console.log('websocket:', error.name, error.message),
);
`;

describe('@rondo/client/node without the optional peer ws', () => {
  it(
    'imports, calls a stdio server, and says what a WebSocket transport needs',
    async () => {
      const { stdout } = await run(
        process.execPath,
        ['--import', WITHOUT_WS, '--input-type=module', '-e', CLIENT],
        { cwd: packageDir, timeout: 60_000 },
      );
      expect(stdout).toContain('ws: ERR_MODULE_NOT_FOUND');
      expect(stdout).toContain('add: 5');
      expect(stdout).toContain(
        'websocket: TransportError the WebSocket transport needs the optional peer dependency `ws` (npm install ws)',
      );
    },
    scaled(90_000),
  );
});
