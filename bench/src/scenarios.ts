import type { AutocannonRequest } from 'autocannon';
import type { ServerChild, ServerSpec } from './child.js';
import { stdioChannel, webSocketChannel } from './load/channels.js';
import { httpDriver, numbered, openLegacySession, single } from './load/http.js';
import { pipelineDriver, type MessageChannel } from './load/pipeline.js';
import type { Driver } from './load/slice.js';
import { CLIENT_SCENARIOS } from './clientCalls.js';
import { SCALE_OUT_SCENARIOS } from './scaleOut.js';
import {
  legacyEcho,
  legacyHeaders,
  fixtureGreet,
  modernEcho,
  modernHeaders,
  modernRequest,
  mrtrRound,
} from './wire.js';

/** What a contender is, for the ratios. */
export type Role =
  | 'ceiling'
  | 'hono-bare'
  | 'bun-bare'
  | 'json-echo'
  | 'sdk'
  | 'rondo'
  | 'rondo-fixture'
  | 'rondo-express'
  | 'rondo-fetch-node'
  | 'rondo-fetch-bun'
  | 'rondo-bridge'
  | 'swipl-echo'
  | 'swipl-term-echo'
  | 'rondo-noop-middleware'
  | 'rondo-otel'
  | 'rondo-policy'
  | 'rondo-redis'
  | 'rondo-replicas'
  | 'rondo-replicas-memory'
  | 'rondo-gateway'
  | 'stdio-relay'
  | 'sdk-client'
  | 'rondo-client'
  | 'rondo-client-fetch';

/** The roles measured against plain Rondo (the `rondo` role) of the same scenario. */
export const AGAINST_RONDO: readonly Role[] = [
  'rondo-fixture',
  'rondo-bridge',
  'rondo-noop-middleware',
  'rondo-otel',
  'rondo-policy',
  'rondo-redis',
  'rondo-replicas',
  'rondo-replicas-memory',
  'rondo-gateway',
  'stdio-relay',
];

/** One server measured in a scenario. */
export interface Contender {
  label: string;
  role: Role;
  server: ServerSpec;
}

/** A driver bound to a running contender, and what to release after the scenario. */
export interface BoundDriver {
  run: Driver;
  close(): Promise<void>;
}

/** One scenario: the contenders and how load is put on each. */
export interface Scenario {
  id: string;
  title: string;
  /** Which goal family the scenario reports against. */
  transport: 'http' | 'stdio' | 'ws';
  contenders: Contender[];
  bind(child: ServerChild, contender: Contender): Promise<BoundDriver>;
}

const TOOLS_IN_LIST = 1000;

const contender = (
  label: string,
  role: Role,
  script: ServerSpec['script'],
  ...args: string[]
): Contender => ({
  label,
  role,
  server: { script, args },
});

function httpContenders(
  response: 'echo' | 'list' | 'mrtr',
  withVariants: boolean,
  tools = 0,
): Contender[] {
  const toolArgs = tools > 0 ? ['--tools', String(tools)] : [];
  const list = [
    contender(
      'node:http ceiling',
      'ceiling',
      'ceiling',
      '--transport',
      'http',
      '--response',
      response,
      ...toolArgs,
    ),
    // The fetch handler's ceilings: the same JSON from bare Hono on @hono/node-server and bare Bun.serve.
    contender('bare Hono (Node)', 'hono-bare', 'honoBare', '--response', response, ...toolArgs),
    contender(
      'bare Bun.serve',
      'bun-bare',
      'bunHost',
      '--server',
      'bare',
      '--response',
      response,
      ...toolArgs,
    ),
    contender('SDK v2', 'sdk', 'sdk', '--transport', 'http', ...toolArgs),
    contender('Rondo (node handler)', 'rondo', 'rondo', '--transport', 'http-node', ...toolArgs),
    contender(
      'Rondo (fetch, Node)',
      'rondo-fetch-node',
      'rondo',
      '--transport',
      'http-fetch',
      ...toolArgs,
    ),
    contender('Rondo (fetch, Bun)', 'rondo-fetch-bun', 'bunHost', ...toolArgs),
  ];
  if (!withVariants) return list;
  return [
    ...list,
    contender('Rondo (express)', 'rondo-express', 'rondo', '--transport', 'http-express'),
    contender(
      'Rondo + bridge',
      'rondo-bridge',
      'rondo',
      '--transport',
      'http-node',
      '--provider',
      'bridge',
    ),
    // The bridge's physical limit: as many bare swipl echoes as it has workers (2), JSON lines
    // and Prolog terms (the bridge's own way in).
    contender('SWI-Prolog echo (2 processes)', 'swipl-echo', 'swiplEcho', '--transport', 'http'),
    contender(
      'SWI-Prolog term echo (2 processes)',
      'swipl-term-echo',
      'swiplEcho',
      '--transport',
      'http',
      '--format',
      'term',
    ),
  ];
}

const free = async (): Promise<void> => undefined;

function modernEchoScenario(connections: number): Scenario {
  return {
    id: `http-modern-c${connections}`,
    title: `tools/call, modern wire over HTTP (JSON), concurrency ${connections}`,
    transport: 'http',
    contenders: httpContenders('echo', true),
    bind: async (child) => ({
      run: httpDriver(child, {
        connections,
        requests: single(modernEcho(1), modernHeaders('tools/call', 'echo')),
      }),
      close: free,
    }),
  };
}

/** The built-in policies measured against plain Rondo: label, `--middleware`, more arguments. */
export const POLICIES: readonly (readonly [string, string, ...string[]])[] = [
  ['Rondo + rate limit (memory)', 'ratelimit'],
  ['Rondo + rate limit (Redis)', 'ratelimit-redis', '--redis', 'own'],
  ['Rondo + response cache (hits)', 'cache'],
  ['Rondo + size cap', 'sizecap'],
  ['Rondo + timeout', 'timeout'],
];

/**
 * What middleware costs: plain Rondo, Rondo with one middleware that only calls `next()`, and
 * Rondo traced by `@rondo/otel` (a tracer provider without exporter), and each built-in policy of
 * `@rondo/policies`, on the modern HTTP echo.
 */
const middlewareOverhead: Scenario = {
  id: 'http-modern-middleware',
  title: 'tools/call, modern wire over HTTP (JSON), concurrency 50: middleware against none',
  transport: 'http',
  contenders: [
    contender('Rondo (node handler)', 'rondo', 'rondo', '--transport', 'http-node'),
    ...(['noop', 'otel'] as const).map((kind) =>
      contender(
        kind === 'noop' ? 'Rondo + no-op mw' : 'Rondo + OTel tracing',
        kind === 'noop' ? 'rondo-noop-middleware' : 'rondo-otel',
        'rondo',
        '--transport',
        'http-node',
        '--middleware',
        kind,
      ),
    ),
    ...POLICIES.map(([label, kind, ...extra]) =>
      contender(
        label,
        'rondo-policy',
        'rondo',
        '--transport',
        'http-node',
        '--middleware',
        kind,
        ...extra,
      ),
    ),
  ],
  bind: async (child) => ({
    run: httpDriver(child, {
      connections: 50,
      requests: single(modernEcho(1), modernHeaders('tools/call', 'echo')),
    }),
    close: free,
  }),
};

const legacySession: Scenario = {
  id: 'http-legacy-session',
  title: 'tools/call, legacy wire over HTTP in one session, concurrency 50',
  transport: 'http',
  contenders: httpContenders('echo', true),
  bind: async (child) => {
    const sessionId = await openLegacySession(child.url('http'));
    return {
      run: httpDriver(child, {
        connections: 50,
        requests: numbered(legacyEcho, legacyHeaders(sessionId)),
      }),
      close: free,
    };
  },
};

function mrtrRequests(): AutocannonRequest[] {
  const headers = modernHeaders('tools/call', 'mrtr');
  let id = 1;
  const keepState = (_status: number, body: string, context: Record<string, unknown>) => {
    context.state = /"requestState":"([^"]*)"/.exec(body)?.[1];
  };
  return [1, 2, 3].map((round) => ({
    method: 'POST',
    path: '/mcp',
    headers,
    setupRequest: (request, context) => ({
      ...request,
      body: mrtrRound(id++, round, context.state as string),
    }),
    onResponse: keepState,
  }));
}

const mrtrFlow: Scenario = {
  id: 'http-mrtr-3-rounds',
  title: 'a 3-round MRTR flow over HTTP, concurrency 10 (req/s counts each round)',
  transport: 'http',
  contenders: httpContenders('mrtr', false),
  bind: async (child) => ({
    run: httpDriver(child, { connections: 10, requests: mrtrRequests() }),
    close: free,
  }),
};

const toolsList: Scenario = {
  id: 'http-tools-list-1000',
  title: `tools/list of ${TOOLS_IN_LIST} tools over HTTP, concurrency 10`,
  transport: 'http',
  contenders: httpContenders('list', false, TOOLS_IN_LIST),
  bind: async (child) => ({
    run: httpDriver(child, {
      connections: 10,
      requests: single(modernRequest(1, 'tools/list'), modernHeaders('tools/list')),
    }),
    close: free,
  }),
};

/**
 * A pipelined echo load: the ceilings echo the request back, the others answer the tool. The
 * conformance fixture has no echo tool: it is called with `greet` (one string in, one text out).
 */
function pipelined(
  channel: MessageChannel,
  role: Role,
  window: number,
  mode: 'batch' | 'continuous',
): BoundDriver {
  const accept =
    role === 'ceiling' || role === 'swipl-echo' || role === 'swipl-term-echo'
      ? () => true
      : role === 'rondo-fixture'
        ? (message: string) => message.includes('"text":"Hello, ') && !message.includes('"isError"')
        : (message: string) => message.includes('"structuredContent"');
  const request = role === 'rondo-fixture' ? fixtureGreet : modernEcho;
  return {
    run: pipelineDriver(channel, { window, mode, request, accept }),
    close: () => channel.close(),
  };
}

const stdioPipelined: Scenario = {
  id: 'stdio-pipelined-1000',
  title: 'tools/call over stdio, 1,000 calls pipelined per batch',
  transport: 'stdio',
  contenders: [
    contender('stdio echo ceiling', 'ceiling', 'ceiling', '--transport', 'stdio'),
    // Parse and answer each line, no MCP logic: the least a JSON-RPC server in Node does.
    contender('bare JSON-lines echo', 'json-echo', 'ceiling', '--transport', 'stdio-json'),
    contender('SDK v2', 'sdk', 'sdk', '--transport', 'stdio'),
    contender('Rondo', 'rondo', 'rondo', '--transport', 'stdio'),
    contender('SWI-Prolog echo (2 processes)', 'swipl-echo', 'swiplEcho', '--transport', 'stdio'),
    contender(
      'Rondo + bridge',
      'rondo-bridge',
      'rondo',
      '--transport',
      'stdio',
      '--provider',
      'bridge',
    ),
  ],
  bind: async (child, c) => pipelined(stdioChannel(child), c.role, 1000, 'batch'),
};

/**
 * The bridge's goal over stdio (issue 30): the echo tool through the bridge with one worker
 * against the same tool in TypeScript, with the same argument and structured result, pipelined;
 * beside them one bare `swipl` reading call terms and answering terms (the Prolog side's limit)
 * and one bare JSON-lines echo.
 */
const stdioBridge: Scenario = {
  id: 'stdio-bridge-1-worker',
  title: 'tools/call over stdio, 1,000 pipelined per batch: the bridge with one worker',
  transport: 'stdio',
  contenders: [
    contender('Rondo (TS tool)', 'rondo', 'rondo', '--transport', 'stdio'),
    contender(
      'Rondo + bridge (1 worker)',
      'rondo-bridge',
      'rondo',
      '--transport',
      'stdio',
      '--provider',
      'bridge',
      '--workers',
      '1',
    ),
    contender(
      'SWI-Prolog term echo (1 process)',
      'swipl-term-echo',
      'swiplEcho',
      '--transport',
      'stdio',
      '--processes',
      '1',
      '--format',
      'term',
    ),
    contender(
      'SWI-Prolog echo (1 process)',
      'swipl-echo',
      'swiplEcho',
      '--transport',
      'stdio',
      '--processes',
      '1',
    ),
  ],
  bind: async (child, c) => pipelined(stdioChannel(child), c.role, 1000, 'batch'),
};

/**
 * The conformance fixture over stdio (issue 41): a server with the Tasks and Skills extensions
 * declared, and every tool, prompt and resource of the official suite, must not pay per call for
 * them. Its `greet` tool (one string argument, a text answer) against the bare JSON-lines echo,
 * 1,000 calls pipelined per batch, with plain Rondo's echo beside them.
 */
const stdioFixture: Scenario = {
  id: 'stdio-fixture-1000',
  title: 'tools/call over stdio, 1,000 pipelined per batch: the conformance fixture',
  transport: 'stdio',
  contenders: [
    contender('bare JSON-lines echo', 'json-echo', 'ceiling', '--transport', 'stdio-json'),
    contender('Rondo', 'rondo', 'rondo', '--transport', 'stdio'),
    contender('conformance fixture', 'rondo-fixture', 'fixture'),
  ],
  bind: async (child, c) => pipelined(stdioChannel(child), c.role, 1000, 'batch'),
};

const webSocketInFlight: Scenario = {
  id: 'ws-50-in-flight',
  title: 'tools/call over WebSocket, 50 calls in flight (the SDK has no WebSocket server)',
  transport: 'ws',
  contenders: [
    contender('ws echo ceiling', 'ceiling', 'ceiling', '--transport', 'ws'),
    contender('Rondo', 'rondo', 'rondo', '--transport', 'ws'),
    contender(
      'Rondo + bridge',
      'rondo-bridge',
      'rondo',
      '--transport',
      'ws',
      '--provider',
      'bridge',
    ),
  ],
  bind: async (child, c) => pipelined(await webSocketChannel(child), c.role, 50, 'continuous'),
};

/**
 * What the gateway costs: the echo tool over stdio, called directly and through `rondo-gateway`'s
 * proxy provider (a gateway process in front of the same server over stdio), 50 calls in flight:
 * on the pass-through path (a modern call to a modern upstream, forwarded as it is) and on the
 * translating path alone (`--no-pass-through`: the gateway's pipeline, then the client's), next
 * to the floor of any process in the middle (a byte relay that parses nothing) and of one that
 * reads what it relays (a JSON relay: parse, new id, serialise, both ways). Server CPU counts
 * the whole process tree, so each figure includes the upstream's.
 */
const stdioGateway: Scenario = {
  id: 'stdio-gateway',
  title: 'tools/call over stdio, 50 in flight: direct against through the gateway',
  transport: 'stdio',
  contenders: [
    contender('Rondo', 'rondo', 'rondo', '--transport', 'stdio'),
    contender('Rondo via gateway', 'rondo-gateway', 'gateway'),
    contender('Rondo via gateway (translating)', 'rondo-gateway', 'gateway', '--no-pass-through'),
    contender('Rondo via byte relay', 'stdio-relay', 'stdioRelay'),
    contender('Rondo via JSON relay', 'stdio-relay', 'stdioRelay', '--json'),
  ],
  bind: async (child, c) => pipelined(stdioChannel(child), c.role, 50, 'continuous'),
};

/** Every scenario, in the order they run. */
export const SCENARIOS: Scenario[] = [
  modernEchoScenario(1),
  modernEchoScenario(50),
  legacySession,
  stdioPipelined,
  stdioBridge,
  stdioFixture,
  stdioGateway,
  webSocketInFlight,
  mrtrFlow,
  toolsList,
  middlewareOverhead,
  ...SCALE_OUT_SCENARIOS,
  ...CLIENT_SCENARIOS,
];
