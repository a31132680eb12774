import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** Wire JSON as the assertions read it: by path, with the shape checked by the assertion itself. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions read wire JSON by path
export type WireJson = any;

/** The repository root (tests run from it, but say so explicitly). */
export const repoRoot = join(import.meta.dirname, '..', '..');

/** The built demo entry, as the root `demo` script runs it. */
export const demoMain = join(repoRoot, 'apps', 'demo', 'dist', 'main.js');

/** A demo server started for a test. */
export interface RunningDemo {
  url: string;
  /** Everything the demo printed on stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

/** A port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts `node apps/demo/dist/main.js --port <free port>` (what `pnpm demo` runs after building)
 * and resolves once it prints its URL. Needs `pnpm build` first.
 */
export async function startDemo(
  extraArgs: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<RunningDemo> {
  if (!existsSync(demoMain)) throw new Error(`${demoMain} is missing: run pnpm build first`);
  const port = await freePort();
  const child = spawn(process.execPath, [demoMain, '--port', String(port), ...extraArgs], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`demo did not start in time:\n${output}`)),
      60_000,
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /Rondo demo on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`demo exited with ${code}:\n${output}`));
    });
  });
  return { url, output: () => output, stop: () => stopProcess(child) };
}

/** The JSON-RPC message of an answer, whether it came as JSON or as an SSE stream. */
async function answerOf(response: Response): Promise<WireJson> {
  const text = await response.text();
  if (!response.headers.get('content-type')?.includes('event-stream')) return JSON.parse(text);
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .at(-1);
  return data === undefined ? undefined : JSON.parse(data.slice(5));
}

/** One modern (2026-07-28) request over HTTP with the standard headers; resolves with the answer. */
export async function postModern(
  url: string,
  id: number,
  method: string,
  params: Record<string, unknown> = {},
): Promise<WireJson> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  };
  const name = typeof params.name === 'string' ? params.name : undefined;
  const response = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }),
  });
  return answerOf(response);
}

/**
 * A short legacy session over HTTP: `initialize` on `revision`, `notifications/initialized`, one
 * `tools/list`, then the session is deleted. Resolves with the tools/list answer.
 */
export async function legacySession(url: string, revision: string): Promise<WireJson> {
  const post = (body: object, session?: string) =>
    fetch(`${url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(session === undefined
          ? {}
          : { 'mcp-session-id': session, 'mcp-protocol-version': revision }),
      },
      body: JSON.stringify(body),
    });
  const params = {
    protocolVersion: revision,
    capabilities: {},
    clientInfo: { name: 'demo-test', version: '1' },
  };
  const initialized = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params });
  await answerOf(initialized);
  const session = initialized.headers.get('mcp-session-id') ?? undefined;
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
  const tools = await answerOf(
    await post({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, session),
  );
  if (session !== undefined)
    await fetch(`${url}/mcp`, {
      method: 'DELETE',
      headers: { 'mcp-session-id': session, 'mcp-protocol-version': revision },
    });
  return tools;
}
