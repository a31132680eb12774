import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scaled } from '@rondo/test-support/timeFactor';

/** The built gateway CLI, as `npm i -g` installs it. */
export const GATEWAY_MAIN = fileURLToPath(
  new URL('../../apps/gateway/dist/main.js', import.meta.url),
);
/** The built conformance fixture (a Rondo server with round hooks). */
export const FIXTURE_MAIN = fileURLToPath(
  new URL('../../apps/conformance-fixture/dist/main.js', import.meta.url),
);
/** The official everything server (legacy era only), pinned in the catalog. */
export const EVERYTHING_MAIN = fileURLToPath(
  new URL(
    '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
    import.meta.url,
  ),
);

/** Writes a configuration file into a fresh temporary folder; returns its path. */
export function writeConfig(mcpServers: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rondo-gateway-'));
  const path = join(dir, 'servers.json');
  writeFileSync(path, JSON.stringify({ mcpServers }, null, 2));
  return path;
}

/** A running `rondo-gateway --transport http`. */
export interface RunningGateway {
  readonly url: URL;
  /** The operator's own listener (`--admin-port`), when the gateway has one. */
  readonly adminUrl: URL | undefined;
  readonly process: ChildProcess;
  stderr(): string;
  close(): Promise<void>;
}

/**
 * Starts the gateway on HTTP on a free port and waits for its serving line; by default with
 * `--wait-upstreams`, so that the upstreams' tools are listed from the first request; `env` is
 * added to this process's environment.
 */
export async function startGateway(
  config: string,
  extra: string[] = [],
  options: { readonly waitUpstreams?: boolean; readonly env?: Record<string, string> } = {},
): Promise<RunningGateway> {
  const wait = options.waitUpstreams === false ? [] : ['--wait-upstreams'];
  const env = options.env ?? {};
  const child = spawn(
    process.execPath,
    [GATEWAY_MAIN, '--transport', 'http', '--port', '0', ...wait, ...extra, config],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, RONDO_STATE_KEY: 'rondo-gateway-tests-state-key-0123456789', ...env },
    },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8');
  const url = await new Promise<URL>((resolve, reject) => {
    // Generous: three test files run at once, and a Node process starting on two busy cores is slow.
    const timer = setTimeout(
      () => reject(new Error(`gateway did not start:\n${stderr}`)),
      scaled(50_000),
    );
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      const found = /serving .*? at (http:\/\/[^\s;]+)/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(new URL(found[1]!));
      }
    });
    child.on('exit', (code) => reject(new Error(`gateway exited (${code}):\n${stderr}`)));
  });
  const admin = /\/metrics at (http:\/\/\S+)/.exec(stderr)?.[1];
  return {
    url,
    adminUrl: admin === undefined ? undefined : new URL(admin),
    process: child,
    stderr: () => stderr,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

/** A fetch that records the JSON-RPC bodies the client sends. */
export function recordingFetch(sent: Record<string, unknown>[]): typeof fetch {
  return async (input, init) => {
    if (typeof init?.body === 'string') {
      try {
        const body = JSON.parse(init.body) as Record<string, unknown>;
        sent.push(body);
      } catch {
        // not JSON: nothing to record
      }
    }
    return fetch(input, init);
  };
}

/** The official SDK's legacy server whose `ask_twice` asks two questions at once (see the file). */
export const ASKING_UPSTREAM = fileURLToPath(new URL('./askingUpstream.mjs', import.meta.url));

/** Starts {@link ASKING_UPSTREAM} on HTTP on a free port; resolves with it and its URL. */
export function startAskingUpstream(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [ASKING_UPSTREAM, 'http'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const found = /listening on (\S+)/.exec(output);
      if (found) resolve({ child, url: found[1]! });
    });
    child.once('exit', (code) => reject(new Error(`upstream exited ${code}:\n${output}`)));
  });
}
