import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client as SdkClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as SdkStdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client, httpTransport } from '@rondo/client';
import { nodeHttpTransport, stdioTransport } from '@rondo/client/node';
import { quantile, type SliceResult } from '../load/slice.js';
import { argument, reportReady, type ReadyMessage } from '../servers/control.js';

/**
 * A client under test: Rondo's (`@rondo/client`; over HTTP on `node:http`, or with `rondo-fetch`
 * on the global fetch) or the official SDK v2's (`@modelcontextprotocol/client`), pinned to 2026-07-28, calling the bench's Rondo server's
 * echo tool with `--in-flight` calls outstanding. Over stdio the client spawns the server as its
 * child; over HTTP this process starts the server (a child of its own) and the client connects.
 * The orchestrator asks for slices over Node IPC (`{ type: 'slice', durationMs }`); each answer
 * carries the slice's calls, latencies, and this process's own CPU time (the server's is not the
 * client's).
 *
 *   node callLoop.js --client rondo|rondo-fetch|sdk --transport stdio|http [--in-flight N]
 */

/** A slice measured inside the client process, with the CPU time the client itself used. */
export interface ClientSliceMessage extends SliceResult {
  type: 'slice';
  cpuMs: number;
}

type Call = () => Promise<unknown>;

const SERVER = fileURLToPath(new URL('../servers/rondo.js', import.meta.url));
const ECHO_ARGS = { text: 'hello' };

async function startHttpServer(): Promise<{ url: string; server: ChildProcess }> {
  const server = fork(SERVER, ['--transport', 'http-node'], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = await new Promise<ReadyMessage>((resolve, reject) => {
    server.on('message', (message: ReadyMessage) => message.type === 'ready' && resolve(message));
    server.once('exit', (code) =>
      reject(new Error(`the Rondo server exited (${code}) before ready`)),
    );
  });
  return { url: `http://127.0.0.1:${ready.port ?? 0}${ready.path ?? '/mcp'}`, server };
}

async function connectRondo(
  transport: string,
  url: string | undefined,
  onFetch: boolean,
): Promise<{ call: Call; close(): Promise<void> }> {
  const overHttp = (at: string) =>
    onFetch ? httpTransport({ url: at }) : nodeHttpTransport({ url: at });
  const client = new Client({
    transport: url
      ? overHttp(url)
      : stdioTransport({ command: process.execPath, args: [SERVER, '--transport', transport] }),
    era: '2026-07-28',
    clientInfo: { name: 'bench-rondo-client', version: '1.0.0' },
  });
  await client.connect();
  return { call: () => client.callTool('echo', ECHO_ARGS), close: () => client.close() };
}

async function connectSdk(
  transport: string,
  url: string | undefined,
): Promise<{ call: Call; close(): Promise<void> }> {
  const client = new SdkClient(
    { name: 'bench-sdk-client', version: '1.0.0' },
    { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    url
      ? new StreamableHTTPClientTransport(new URL(url))
      : new SdkStdioTransport({
          command: process.execPath,
          args: [SERVER, '--transport', transport],
        }),
  );
  return {
    call: () => client.callTool({ name: 'echo', arguments: ECHO_ARGS }),
    close: () => client.close(),
  };
}

/** Keeps `inFlight` calls outstanding for `durationMs`, timing each. */
async function slice(
  call: Call,
  inFlight: number,
  durationMs: number,
): Promise<ClientSliceMessage> {
  const latencies: number[] = [];
  let errors = 0;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const deadline = start + durationMs;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const sent = performance.now();
      try {
        await call();
      } catch {
        errors += 1;
      }
      latencies.push(performance.now() - sent);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const durationMsTaken = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  return {
    type: 'slice',
    requests: latencies.length,
    durationMs: durationMsTaken,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    errors,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}

async function main(): Promise<void> {
  const which = argument('client', 'rondo');
  const transport = argument('transport', 'stdio');
  const inFlight = Number(argument('in-flight', '16'));
  const http = transport === 'http' ? await startHttpServer() : undefined;
  const client =
    which === 'sdk'
      ? await connectSdk(transport, http?.url)
      : await connectRondo(transport, http?.url, which === 'rondo-fetch');
  process.on('message', (message: { type?: string; durationMs?: number }) => {
    if (message.type !== 'slice') return;
    void slice(client.call, inFlight, message.durationMs ?? 1000).then((result) =>
      process.send?.(result),
    );
  });
  process.once('SIGTERM', () => {
    void client.close().finally(() => {
      http?.server.kill('SIGTERM');
      process.exit(0);
    });
  });
  reportReady();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
