import { spawn, type ChildProcess } from 'node:child_process';
import {
  Client,
  clientCredentials,
  httpTransport,
  oauth,
  type ClientHandlers,
} from '@rondo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import {
  followRedirect,
  MACHINE_CLIENT,
  startJwtAuthServer,
  type JwtAuthServer,
  untilServing,
} from '../support/jwtAuthServer.js';
import { freePort } from '../support/nginx.js';
import { ASKING_UPSTREAM, GATEWAY_MAIN, startAskingUpstream, writeConfig } from './support.js';

// Issue 38, done-when 1: two principals through a `--auth-jwks` gateway in front of a legacy
// upstream (the official SDK's server) whose tool has two questions in flight. Over stdio the
// questions name no call, so each principal gets a process of its own (the default isolation of
// a legacy upstream); over HTTP each question arrives on its call's stream, so even one shared
// upstream session routes it right. Where nothing tells the calls apart (stdio, one shared
// process), the questions are refused to the upstream rather than sent to a guess.

/** One caller: what it was asked, and a handler that answers once both callers have been asked. */
interface Caller {
  readonly name: string;
  readonly asked: string[];
  readonly client: Client;
}

let as: JwtAuthServer;
let upstream: ChildProcess;
let gateway: ChildProcess;
let alice: Caller;
let bob: Caller;
const askedAtAll = new Set<string>();

/** Answers once both callers have been asked something (so their calls overlap), or after 5 s. */
function answering(name: string, asked: string[]): ClientHandlers {
  return {
    elicitation: async (params) => {
      const message = String((params as { message?: unknown }).message);
      asked.push(message);
      askedAtAll.add(name);
      const deadline = Date.now() + 5000;
      while (askedAtAll.size < 2 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return { action: 'accept', content: { answer: `${name} answers ${message}` } };
    },
  };
}

async function caller(
  name: string,
  era: '2026-07-28' | '2025-11-25',
  authorizer: Parameters<typeof httpTransport>[0]['authorizer'],
  url: string,
): Promise<Caller> {
  const asked: string[] = [];
  const client = new Client({
    era,
    transport: httpTransport({ url, authorizer }),
    handlers: answering(name, asked),
  });
  await client.connect();
  return { name, asked, client };
}

beforeAll(async () => {
  as = await startJwtAuthServer();
  const http = await startAskingUpstream();
  upstream = http.child;
  const stdio = { command: process.execPath, args: [ASKING_UPSTREAM, 'stdio'] };
  const config = writeConfig({
    stdio: stdio,
    stdioShared: { ...stdio, isolation: 'shared' },
    http: { url: http.url },
    httpShared: { url: http.url, isolation: 'shared' },
  });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  gateway = spawn(
    process.execPath,
    [GATEWAY_MAIN, '--transport', 'http', '--port', String(port), '--auth-resource', url, config],
    {
      env: {
        ...process.env,
        RONDO_AUTH_ISSUER: as.issuer,
        RONDO_AUTH_JWKS: as.jwksUrl,
        RONDO_AUTH_SCOPES: 'mcp',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  await untilServing(gateway);
  // Two principals: a person (user-1, the authorization code flow) on the modern wire, and a
  // machine client (client credentials) on the legacy one.
  alice = await caller(
    'alice',
    '2026-07-28',
    oauth({ onRedirect: followRedirect, redirectUri: 'http://127.0.0.1:1/cb' }),
    url,
  );
  bob = await caller('bob', '2025-11-25', clientCredentials({ ...MACHINE_CLIENT }), url);
  // The catalog fills as the upstreams connect.
  for (let tries = 0; (await alice.client.listTools()).tools.length < 8; tries += 1) {
    if (tries > 150) throw new Error('the upstreams did not connect');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, scaled(90_000));

afterAll(async () => {
  await alice?.client.close();
  await bob?.client.close();
  gateway?.kill('SIGTERM');
  upstream?.kill('SIGTERM');
  await as?.close();
});

function textOf(result: { content: unknown[] }): string {
  return (result.content[0] as { text?: string } | undefined)?.text ?? '';
}

async function bothAsk(tool: string, delayMs = 0) {
  alice.asked.length = 0;
  bob.asked.length = 0;
  askedAtAll.clear();
  return Promise.allSettled([
    alice.client.callTool(tool, { secret: 'alice-secret', delayMs }),
    bob.client.callTool(tool, { secret: 'bob-secret', delayMs }),
  ]);
}

describe(
  'questions of a legacy upstream reach only the call that asked',
  { timeout: scaled(60_000) },
  () => {
    it.each(['stdio', 'http', 'httpShared'])(
      'upstream %s: each principal gets its two questions and its answers finish its own call',
      async (entry) => {
        const [forAlice, forBob] = await bothAsk(`${entry}_ask_twice`);
        expect(forAlice.status === 'fulfilled' && textOf(forAlice.value)).toBe(
          'alice-secret: alice answers Q1 about alice-secret + alice answers Q2 about alice-secret',
        );
        expect(forBob.status === 'fulfilled' && textOf(forBob.value)).toBe(
          'bob-secret: bob answers Q1 about bob-secret + bob answers Q2 about bob-secret',
        );
        expect(alice.asked.sort()).toEqual(['Q1 about alice-secret', 'Q2 about alice-secret']);
        expect(bob.asked.sort()).toEqual(['Q1 about bob-secret', 'Q2 about bob-secret']);
      },
    );

    it('refuses to the upstream the questions of one shared stdio process that no call is named in', async () => {
      // Both calls are open upstream before the tool asks: nothing tells whose questions they are.
      const outcomes = await bothAsk('stdioShared_ask_twice', scaled(1500));
      expect(alice.asked.filter((message) => message.includes('bob'))).toEqual([]);
      expect(bob.asked.filter((message) => message.includes('alice'))).toEqual([]);
      for (const outcome of outcomes) {
        expect(outcome).toMatchObject({
          status: 'rejected',
          reason: { message: expect.stringMatching(/cannot tell which of its 2 open calls/) },
        });
      }
    });
  },
);
