import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { createEndpoint, createServer, type Endpoint, type HostGuardOptions } from '@rondo/core';
import { serveHttp, type HttpServerHandle } from '@rondo/transport-http';
import { serveWebSocket, type WebSocketServerHandle } from '@rondo/transport-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { startDemo, type RunningDemo } from '../demo/demoProcess.js';
import {
  postOutcome,
  upgradeOutcome,
  type Outcome,
  type ProbeHeaders,
} from './support/guardProbes.js';

/** The guard options each case runs under; `default` is what the demo runs with too. */
const POLICIES = {
  default: {},
  listedOrigin: { allowedOrigins: ['http://localhost:5173'] },
  listedHost: { allowedHosts: ['mcp.example.com'] },
  listedHostPort: { allowedHosts: ['mcp.example.com:8443'] },
  anyOrigin: { allowedOrigins: 'any' },
  anyHostAndOrigin: { allowedHosts: 'any', allowedOrigins: 'any' },
} satisfies Record<string, HostGuardOptions>;

type Policy = keyof typeof POLICIES;

interface GuardCase {
  name: string;
  policy: Policy;
  /** `$PORT` is replaced by the port the server listens on. */
  host: string | undefined;
  origin?: string;
  expected: Outcome;
}

/** Every server listens on 127.0.0.1: a loopback connection. */
const CASES: GuardCase[] = [
  {
    name: 'no Origin, Host 127.0.0.1',
    policy: 'default',
    host: '127.0.0.1:$PORT',
    expected: 'allowed',
  },
  { name: 'Host localhost', policy: 'default', host: 'localhost:$PORT', expected: 'allowed' },
  { name: 'Host [::1]', policy: 'default', host: '[::1]:$PORT', expected: 'allowed' },
  {
    name: 'Host localhost without a port',
    policy: 'default',
    host: 'localhost',
    expected: 'allowed',
  },
  {
    name: 'a loopback Host on another port',
    policy: 'default',
    host: 'localhost:1',
    expected: 'allowed',
  },
  { name: 'Host 127.0.0.2', policy: 'default', host: '127.0.0.2:$PORT', expected: 'allowed' },
  {
    name: 'a rebinding DNS name',
    policy: 'default',
    host: 'evil.example.com:$PORT',
    expected: 403,
  },
  { name: 'a non-loopback address', policy: 'default', host: '192.168.1.5:$PORT', expected: 403 },
  {
    name: 'a Host with a port past 65535',
    policy: 'default',
    host: 'localhost:99999',
    expected: 400,
  },
  { name: 'no Host at all', policy: 'default', host: undefined, expected: 400 },
  {
    name: "the server's own Origin",
    policy: 'default',
    host: '127.0.0.1:$PORT',
    origin: 'http://127.0.0.1:$PORT',
    expected: 'allowed',
  },
  {
    name: 'an own Origin on the default port',
    policy: 'default',
    host: 'localhost:80',
    origin: 'http://localhost',
    expected: 'allowed',
  },
  {
    name: 'a loopback Origin of another spelling',
    policy: 'default',
    host: '127.0.0.1:$PORT',
    origin: 'http://localhost:$PORT',
    expected: 403,
  },
  {
    name: 'a dev server Origin not listed',
    policy: 'default',
    host: '127.0.0.1:$PORT',
    origin: 'http://localhost:5173',
    expected: 403,
  },
  {
    name: 'a foreign Origin',
    policy: 'default',
    host: '127.0.0.1:$PORT',
    origin: 'http://evil.example.com',
    expected: 403,
  },
  {
    name: 'the opaque Origin null',
    policy: 'default',
    host: '127.0.0.1:$PORT',
    origin: 'null',
    expected: 403,
  },
  {
    name: 'a rebinding Host with its own Origin',
    policy: 'default',
    host: 'evil.example.com:$PORT',
    origin: 'http://evil.example.com:$PORT',
    expected: 403,
  },
  {
    name: 'a listed Origin',
    policy: 'listedOrigin',
    host: '127.0.0.1:$PORT',
    origin: 'http://localhost:5173',
    expected: 'allowed',
  },
  {
    name: 'an Origin beside the listed one',
    policy: 'listedOrigin',
    host: '127.0.0.1:$PORT',
    origin: 'http://localhost:5174',
    expected: 403,
  },
  {
    name: 'a listed host on any port',
    policy: 'listedHost',
    host: 'mcp.example.com:8443',
    expected: 'allowed',
  },
  {
    name: 'a listed host with its https Origin',
    policy: 'listedHost',
    host: 'mcp.example.com',
    origin: 'https://mcp.example.com',
    expected: 'allowed',
  },
  {
    name: 'loopback once hosts are listed',
    policy: 'listedHost',
    host: '127.0.0.1:$PORT',
    expected: 403,
  },
  {
    name: 'a listed host:port',
    policy: 'listedHostPort',
    host: 'mcp.example.com:8443',
    expected: 'allowed',
  },
  {
    name: 'a listed host on another port',
    policy: 'listedHostPort',
    host: 'mcp.example.com:443',
    expected: 403,
  },
  {
    name: "any Origin with 'any'",
    policy: 'anyOrigin',
    host: '127.0.0.1:$PORT',
    origin: 'null',
    expected: 'allowed',
  },
  {
    name: "a rebinding Host with Origins 'any'",
    policy: 'anyOrigin',
    host: 'evil.example.com',
    origin: 'http://evil.example.com',
    expected: 403,
  },
  {
    name: "anything with both 'any'",
    policy: 'anyHostAndOrigin',
    host: 'evil.example.com',
    origin: 'http://evil.example.com',
    expected: 'allowed',
  },
];

function probeFor(guardCase: GuardCase, port: number): ProbeHeaders {
  const withPort = (value: string | undefined) => value?.replaceAll('$PORT', String(port));
  return { host: withPort(guardCase.host), origin: withPort(guardCase.origin) };
}

describe('the Host/Origin guard answers alike on HTTP and WebSocket', () => {
  let endpoint: Endpoint;
  const servers = new Map<Policy, { http: HttpServerHandle; ws: WebSocketServerHandle }>();

  beforeAll(async () => {
    const server = createServer({ name: 'guard', version: '1.0.0', log: () => undefined });
    endpoint = createEndpoint(server, { modern: modernEra(), legacy: legacyEra() });
    for (const [policy, options] of Object.entries(POLICIES) as [Policy, HostGuardOptions][]) {
      servers.set(policy, {
        http: await serveHttp(endpoint, options),
        ws: await serveWebSocket(endpoint, { ...options, keepAlive: false }),
      });
    }
  });
  afterAll(async () => {
    for (const { http, ws } of servers.values()) await Promise.all([http.close(), ws.close()]);
    await endpoint?.close();
  });

  it.each(CASES)('$policy: $name → $expected', async (guardCase) => {
    const { http, ws } = servers.get(guardCase.policy)!;
    const answers = {
      http: await postOutcome(http.port, '/mcp', probeFor(guardCase, http.port)),
      ws: await upgradeOutcome(ws.port, '/ws', probeFor(guardCase, ws.port)),
    };
    expect(answers).toEqual({ http: guardCase.expected, ws: guardCase.expected });
  });
});

describe(
  'the demo answers the default cases alike on /mcp and /ws',
  { timeout: scaled(60_000) },
  () => {
    let demo: RunningDemo;
    let port: number;

    beforeAll(async () => {
      demo = await startDemo(['--no-prolog']);
      port = Number(new URL(demo.url).port);
    }, scaled(60_000));
    afterAll(async () => {
      await demo?.stop();
    });

    it.each(CASES.filter((guardCase) => guardCase.policy === 'default'))(
      '$name → $expected',
      async (guardCase) => {
        const probe = probeFor(guardCase, port);
        const answers = {
          http: await postOutcome(port, '/mcp', probe),
          ws: await upgradeOutcome(port, '/ws', probe),
        };
        expect(answers).toEqual({ http: guardCase.expected, ws: guardCase.expected });
      },
    );
  },
);
