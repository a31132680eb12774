import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { scaled } from '@rondo/test-support/timeFactor';

const at = (path: string): string => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

/** The built CLIs, as `pnpm fixture`, `pnpm demo` and `pnpm logtalk-host` run them. */
export const CLIS = {
  fixture: at('apps/conformance-fixture/dist/main.js'),
  demo: at('apps/demo/dist/main.js'),
  logtalk: at('apps/logtalk-host/dist/main.js'),
} as const;

/** A Prolog provider for `rondo-logtalk`. */
export const BIRDS_PL = at('packages/logtalk-bridge/examples/birds.pl');

/** Where each CLI announces its URL on stderr. */
const ANNOUNCEMENTS: Record<keyof typeof CLIS, RegExp> = {
  fixture: /serving \w+ at (\S+)/,
  demo: /Rondo demo on (http:\/\/\S+)/,
  logtalk: /serving \S+ over \w+ at (\S+)/,
};

/** A CLI started for a test, serving at `url`. */
export interface RunningCli {
  url: string;
  stop(): Promise<void>;
}

/** The key variables left out of a child's environment, so the test decides them alone. */
const KEY_VARIABLES = ['RONDO_STATE_KEY', 'RONDO_STATE_KEYS', 'RONDO_ALLOWED_HOSTS'];

function cliEnvironment(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const name of KEY_VARIABLES) delete base[name];
  return { ...base, ...env };
}

function spawnCli(cli: keyof typeof CLIS, args: string[], env: Record<string, string>) {
  if (!existsSync(CLIS[cli])) throw new Error(`${CLIS[cli]} is missing: run pnpm build first`);
  return spawn(process.execPath, [CLIS[cli], ...args], {
    env: cliEnvironment(env),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/** Starts a CLI and resolves once it printed its URL; rejects with its output if it exits first. */
export async function startCli(
  cli: keyof typeof CLIS,
  args: string[],
  env: Record<string, string> = {},
): Promise<RunningCli> {
  const child = spawnCli(cli, args, env);
  const url = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(
      () => reject(new Error(`${cli} did not start:\n${stderr}`)),
      scaled(30_000),
    );
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const found = ANNOUNCEMENTS[cli].exec(stderr);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${cli} exited with ${code}:\n${stderr}`));
    });
  });
  return { url, stop: () => stopChild(child) };
}

/** Runs a CLI that is expected to stop by itself; resolves with its exit code and stderr. */
export function runToExit(
  cli: keyof typeof CLIS,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stderr: string }> {
  const child = spawnCli(cli, args, env);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${cli} did not stop:\n${stderr}`));
    }, 30_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** An HTTP answer: its status and its body, parsed as JSON when it is (the last SSE event too). */
export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions read wire JSON by path
  json: any;
  text: string;
}

/**
 * POSTs a JSON-RPC message to `url` with the `Host` header given (fetch may not set Host, so this
 * is `node:http`), and MCP headers for a modern request.
 */
export function postWithHost(url: string, host: string, message: object): Promise<Answer> {
  const body = JSON.stringify(message);
  const method = (message as { method?: string }).method ?? '';
  const name = (message as { params?: { name?: unknown } }).params?.name;
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {
      method: 'POST',
      headers: {
        host,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
      },
    });
    outgoing.once('error', reject);
    outgoing.once('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.once('end', () =>
        resolve({ status: response.statusCode ?? 0, json: parse(text), text }),
      );
    });
    outgoing.end(body);
  });
}

function parse(text: string): unknown {
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .at(-1);
  try {
    return JSON.parse(data === undefined ? text : data.slice(5));
  } catch {
    return undefined;
  }
}

/** A modern (2026-07-28) request: the method and params with the `_meta` every request carries. */
export function modern(id: number, method: string, params: Record<string, unknown> = {}) {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
    'io.modelcontextprotocol/clientInfo': { name: 'proxy-flags-test', version: '1.0.0' },
  };
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } };
}
