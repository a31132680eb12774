import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import {
  BIRDS_PL,
  modern,
  postWithHost,
  runToExit,
  startCli,
  type RunningCli,
} from './support/cli.js';

// The flags for running behind a proxy and a load balancer, through the real CLIs: the conformance
// fixture, the demo and rondo-logtalk, each started from its built dist.

const RULE = /a requestState key needs at least 32 bytes/;
const PUBLIC_NAME = 'mcp.example.test';
const S1 = 'the-first-secret-of-32-bytes-or-more-0123';
const S2 = 'the-second-secret-of-32-bytes-or-more-012';
const HTTP = ['--transport', 'http', '--port', '0'];

describe.concurrent('a requestState key shorter than 32 bytes stops each CLI at start', () => {
  it.each([
    [
      'the fixture, RONDO_STATE_KEY',
      'fixture',
      HTTP,
      { RONDO_STATE_KEY: 'short' },
      /RONDO_STATE_KEY is 5 bytes long/,
    ],
    [
      'the fixture, --state-keys',
      'fixture',
      [...HTTP, '--state-keys', `k1:${S1},k0:short`],
      {},
      /--state-keys: the key "k0"/,
    ],
    [
      'the demo, RONDO_STATE_KEYS',
      'demo',
      ['--no-prolog', '--port', '0'],
      { RONDO_STATE_KEYS: `k1:${S1},k0:short` },
      /RONDO_STATE_KEYS: the key "k0"/,
    ],
    [
      'the demo, --state-keys',
      'demo',
      ['--no-prolog', '--port', '0', '--state-keys', 'k0:short'],
      {},
      /--state-keys: the key "k0"/,
    ],
    [
      'rondo-logtalk, RONDO_STATE_KEY',
      'logtalk',
      [...HTTP, BIRDS_PL],
      { RONDO_STATE_KEY: 'short' },
      /RONDO_STATE_KEY is 5 bytes long/,
    ],
    [
      'rondo-logtalk, --state-keys',
      'logtalk',
      [...HTTP, '--state-keys', 'k0:short', BIRDS_PL],
      {},
      /--state-keys: the key "k0"/,
    ],
  ] as const)('%s', async (_label, cli, args, env, which) => {
    const { code, stderr } = await runToExit(cli, [...args], env);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(RULE);
    expect(stderr).toMatch(which);
  });
});

describe('--allowed-hosts and RONDO_ALLOWED_HOSTS', { timeout: scaled(60_000) }, () => {
  const running: RunningCli[] = [];
  let fixture: RunningCli;
  let fixtureWs: RunningCli;
  let demo: RunningCli;
  let logtalk: RunningCli;

  beforeAll(async () => {
    const env = { RONDO_ALLOWED_HOSTS: PUBLIC_NAME };
    [fixture, fixtureWs, demo, logtalk] = await Promise.all([
      startCli('fixture', [...HTTP, '--allowed-hosts', `${PUBLIC_NAME},localhost`]),
      startCli('fixture', ['--transport', 'ws', '--port', '0'], env),
      startCli('demo', ['--no-prolog', '--port', '0', '--allowed-hosts', PUBLIC_NAME]),
      startCli('logtalk', [...HTTP, '--workers', '1', BIRDS_PL], env),
    ]);
    running.push(fixture, fixtureWs, demo, logtalk);
  });
  afterAll(() => Promise.all(running.map((cli) => cli.stop())));

  const discover = modern(1, 'server/discover');

  it('answers the name a proxy forwards and refuses others with 403 (fixture, http)', async () => {
    for (const host of [PUBLIC_NAME, `${PUBLIC_NAME}:443`, 'localhost:1']) {
      const answer = await postWithHost(fixture.url, host, discover);
      expect(answer.status, host).toBe(200);
      expect(answer.json.result.supportedVersions).toContain('2026-07-28');
    }
    // The list replaces the default rule: a loopback IP is refused unless listed too.
    for (const host of ['evil.test', new URL(fixture.url).host])
      expect((await postWithHost(fixture.url, host, discover)).status, host).toBe(403);
  });

  it('guards WebSocket upgrades alike (fixture, ws, from the environment)', async () => {
    expect(await upgradeStatus(fixtureWs.url, PUBLIC_NAME)).toBe(101);
    expect(await upgradeStatus(fixtureWs.url, 'evil.test')).toBe(403);
  });

  it('guards /mcp, /ws and /traffic of the demo with the same list', async () => {
    const mcp = `${demo.url}/mcp`;
    expect((await postWithHost(mcp, PUBLIC_NAME, discover)).status).toBe(200);
    expect((await postWithHost(mcp, 'evil.test', discover)).status).toBe(403);
    const ws = `${demo.url.replace(/^http/, 'ws')}/ws`;
    expect(await upgradeStatus(ws, PUBLIC_NAME)).toBe(101);
    expect(await upgradeStatus(ws, 'evil.test')).toBe(403);
    expect(await getStatus(`${demo.url}/traffic`, PUBLIC_NAME)).toBe(200);
    expect(await getStatus(`${demo.url}/traffic`, 'evil.test')).toBe(403);
  });

  it('answers the listed name and refuses others with 403 (rondo-logtalk, from the environment)', async () => {
    const tools = modern(2, 'tools/list');
    const answer = await postWithHost(logtalk.url, PUBLIC_NAME, tools);
    expect(answer.status).toBe(200);
    expect(answer.json.result.tools.map((tool: { name: string }) => tool.name)).toContain(
      'identify_bird',
    );
    expect((await postWithHost(logtalk.url, 'evil.test', tools)).status).toBe(403);
  });
});

describe('a rotated key ring, across fixture processes', { timeout: scaled(60_000) }, () => {
  const running: RunningCli[] = [];
  let before: RunningCli;
  let rotated: RunningCli;
  let withoutOld: RunningCli;

  beforeAll(async () => {
    [before, rotated, withoutOld] = await Promise.all([
      startCli('fixture', HTTP, { RONDO_STATE_KEYS: `k1:${S1}` }),
      startCli('fixture', [...HTTP, '--state-keys', `k2:${S2},k1:${S1}`]),
      startCli('fixture', HTTP, { RONDO_STATE_KEYS: `k2:${S2}` }),
    ]);
    running.push(before, rotated, withoutOld);
  });
  afterAll(() => Promise.all(running.map((cli) => cli.stop())));

  const tool = 'test_input_required_result_request_state';
  const post = (cli: RunningCli, message: object) =>
    postWithHost(cli.url, new URL(cli.url).host, message);
  const retry = (requestState: string) =>
    modern(2, 'tools/call', {
      name: tool,
      arguments: {},
      inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
      requestState,
    });

  it('finishes on [k2, k1] a round sealed on [k1], and refuses it on [k2] alone', async () => {
    const first = (await post(before, modern(1, 'tools/call', { name: tool, arguments: {} }))).json;
    expect(first.result.resultType).toBe('input_required');
    const sealed: string = first.result.requestState;
    expect(sealed.startsWith('k1.')).toBe(true);

    const finished = (await post(rotated, retry(sealed))).json;
    expect(finished.result.content[0].text).toBe('state-ok: confirmed=true');

    const refused = (await post(withoutOld, retry(sealed))).json;
    expect(refused.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Invalid or expired requestState: .*RONDO_STATE_KEY/),
    });
  });

  it('seals with the newest key, which a process still on the old ring refuses', async () => {
    const first = (await post(rotated, modern(1, 'tools/call', { name: tool, arguments: {} })))
      .json;
    const sealed: string = first.result.requestState;
    expect(sealed.startsWith('k2.')).toBe(true);
    expect((await post(withoutOld, retry(sealed))).json.result.content[0].text).toBe(
      'state-ok: confirmed=true',
    );
    expect((await post(before, retry(sealed))).json.error.code).toBe(-32602);
  });
});

/** The status a WebSocket upgrade (subprotocol `mcp`) with this Host header gets: 101 or a refusal. */
function upgradeStatus(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url.replace(/^ws/, 'http'), {
      headers: {
        host,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        'sec-websocket-protocol': 'mcp',
      },
    });
    outgoing.once('error', reject);
    outgoing.once('upgrade', (response, socket) => {
      socket.destroy();
      resolve(response.statusCode ?? 0);
    });
    outgoing.once('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    outgoing.end();
  });
}

/** The status of a plain GET with this Host header. */
function getStatus(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { headers: { host } });
    outgoing.once('error', reject);
    outgoing.once('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    outgoing.end();
  });
}
