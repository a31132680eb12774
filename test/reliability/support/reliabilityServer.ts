import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { createEndpoint, createServer, type Connection, type Endpoint } from '@rondo/core';
import { createPrologProvider, type PrologProvider } from '@rondo/logtalk-bridge';
import { formElicitation, inputRequest, inputRequired, structured, text } from '@rondo/protocol';
import { scaled } from '@rondo/test-support/timeFactor';

/** The Prolog echo tool the benchmark uses too. */
export const PROLOG_ECHO = fileURLToPath(new URL('../../../bench/prolog/echo.pl', import.meta.url));

/** Why the bridge parts are skipped, or undefined when `swipl` runs. */
export function swiplMissing(): string | undefined {
  try {
    execFileSync('swipl', ['--version'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'swipl is not installed (Debian: swi-prolog-nox)';
  }
}

/** A server for the reliability suite, and what it can tell about work still running. */
export interface ReliabilityServer {
  endpoint: Endpoint;
  /** Tool handlers running now (counted by the handlers themselves). */
  readonly activeHandlers: number;
  /** Requests in flight over every connection the endpoint opened. */
  readonly inFlight: number;
  /** Connections opened and not yet closed. */
  readonly openConnections: number;
  /** The bridge provider, when one was asked for and swipl is there. */
  bridge: PrologProvider | undefined;
  close(): Promise<void>;
}

/**
 * The suite's server: `echo`, `add`, a 3-round `mrtr` tool, `slow` (waits until cancelled or its
 * time is up, reporting progress first, so responses turn into streams), `big` (a large result for
 * slow readers), and, with `bridge`, the Prolog `echo` as `prolog_echo` (two workers).
 */
export async function startReliabilityServer(
  options: { bridge?: boolean } = {},
): Promise<ReliabilityServer> {
  let active = 0;
  const counted = async <T>(work: () => Promise<T> | T): Promise<T> => {
    active++;
    try {
      return await work();
    } finally {
      active--;
    }
  };
  const server = createServer({
    name: 'rondo-reliability',
    version: '1.0.0',
    log: () => undefined,
  });
  const schema = (properties: Record<string, 'string' | 'number'>) => ({
    type: 'object',
    properties: Object.fromEntries(Object.entries(properties).map(([k, type]) => [k, { type }])),
    required: Object.keys(properties),
  });
  const textInput = schema({ text: 'string' });
  const str = (value: unknown) => String(value);
  const num = (value: unknown) => Number(value);
  server.tool('echo', { input: textInput }, (args) =>
    counted(() => structured({ text: str(args.text) }, [text(str(args.text))])),
  );
  server.tool('add', { input: schema({ a: 'number', b: 'number' }) }, (args) =>
    counted(() => structured({ sum: num(args.a) + num(args.b) })),
  );
  server.tool('mrtr', { input: textInput }, (args, ctx) =>
    counted(() => {
      const step = typeof ctx.requestState === 'number' ? ctx.requestState : 0;
      if (step >= 2)
        return structured({ text: str(args.text), rounds: step + 1 }, [text(str(args.text))]);
      const form = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
      return inputRequired(
        [inputRequest(`q${step + 1}`, formElicitation('Go on?', form))],
        step + 1,
      );
    }),
  );
  server.tool('slow', { input: schema({ ms: 'number' }) }, (args, ctx) =>
    counted(async () => {
      ctx.progress(0, 1, 'started');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, num(args.ms));
        ctx.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), {
          once: true,
        });
      });
      return text(ctx.signal.aborted ? 'cancelled' : 'done');
    }),
  );
  server.tool('big', { input: schema({ kib: 'number' }) }, (args) =>
    counted(() => text('x'.repeat(num(args.kib) * 1024))),
  );
  let bridge: PrologProvider | undefined;
  if (options.bridge && !swiplMissing()) {
    bridge = await createPrologProvider({
      files: [PROLOG_ECHO],
      workers: 2,
      name: 'prolog_echo',
      onLog: () => undefined,
    });
    server.provider(renamed(bridge));
  }
  const inner = createEndpoint(server, {
    modern: modernEra({ alsoSupported: ['2025-11-25', '2025-06-18'] }),
    legacy: legacyEra(),
  });
  const connections = new Set<Connection>();
  const endpoint: Endpoint = {
    connect: (peer) => {
      const connection = inner.connect(peer);
      connections.add(connection);
      return {
        receive: (message, exchange) => connection.receive(message, exchange),
        get stateful() {
          return connection.stateful;
        },
        get inFlight() {
          return connection.inFlight;
        },
        close: () => {
          connections.delete(connection);
          connection.close();
        },
      };
    },
    ready: () => inner.ready(),
    close: () => inner.close(),
  };
  await endpoint.ready();
  return {
    endpoint,
    get activeHandlers() {
      return active;
    },
    get inFlight() {
      return [...connections].reduce((sum, c) => sum + c.inFlight, 0);
    },
    get openConnections() {
      return connections.size;
    },
    bridge,
    close: () => endpoint.close(),
  };
}

/** The bridge's `echo` served as `prolog_echo`, so it sits beside the TypeScript `echo`. */
function renamed(provider: PrologProvider): PrologProvider {
  const tools = async () =>
    ((await provider.tools?.()) ?? []).map((t) => ({ ...t, name: `prolog_${t.name}` }));
  return Object.assign(Object.create(provider) as PrologProvider, {
    tools,
    callTool: (
      name: string,
      args: Parameters<NonNullable<PrologProvider['callTool']>>[1],
      ctx: Parameters<NonNullable<PrologProvider['callTool']>>[2],
    ) => provider.callTool!(name.replace(/^prolog_/, ''), args, ctx),
  });
}

/** Resolves once `predicate` holds, polling; rejects after `timeoutMs`. */
export async function eventually(
  predicate: () => boolean,
  timeoutMs = scaled(5000),
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
