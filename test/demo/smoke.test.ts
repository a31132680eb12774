import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { WebSocket } from 'ws';
import { demoMain, repoRoot, startDemo, type RunningDemo, type WireJson } from './demoProcess.js';

const MODERN = '2026-07-28';
const meta = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
};

async function post(
  url: string,
  body: object,
  headers: Record<string, string>,
): Promise<{ status: number; json: WireJson }> {
  const response = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('event-stream')
    ? JSON.parse(
        text
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .at(-1)!
          .slice(5),
      )
    : JSON.parse(text);
  return { status: response.status, json };
}

describe('the demo started as the README says', { timeout: scaled(60_000) }, () => {
  let demo: RunningDemo;

  beforeAll(async () => {
    demo = await startDemo();
  }, scaled(60_000));
  afterAll(async () => {
    await demo?.stop();
  });

  it('answers the modern server/discover over HTTP', async () => {
    const { status, json } = await post(
      demo.url,
      { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' },
    );
    expect(status).toBe(200);
    expect(json.result.resultType).toBe('complete');
    expect(json.result.supportedVersions).toContain(MODERN);
    expect(json.result.capabilities.tools).toBeDefined();
    expect(json.result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('rondo-demo');
  });

  it('answers the legacy initialize over HTTP with a session', async () => {
    const params = {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'smoke', version: '1' },
    };
    const response = await fetch(`${demo.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params }),
    });
    expect(response.status).toBe(200);
    const session = response.headers.get('mcp-session-id');
    expect(session).toMatch(/^[\x21-\x7E]+$/);
    const text = await response.text();
    const json = JSON.parse(
      text.startsWith('{')
        ? text
        : text
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .at(-1)!
            .slice(5),
    );
    expect(json.result.protocolVersion).toBe('2025-06-18');
    expect(json.result.serverInfo.name).toBe('rondo-demo');
    expect(json.result).not.toHaveProperty('resultType');
    await fetch(`${demo.url}/mcp`, {
      method: 'DELETE',
      headers: { 'mcp-session-id': session!, 'mcp-protocol-version': '2025-06-18' },
    });
  });

  it('calls a tool over the WebSocket at /ws', async () => {
    const socket = new WebSocket(`${demo.url.replace('http', 'ws')}/ws`, 'mcp');
    try {
      const reply = await new Promise<WireJson>((resolve, reject) => {
        socket.once('error', reject);
        socket.once('open', () =>
          socket.send(
            JSON.stringify({
              jsonrpc: '2.0',
              id: 'ws-1',
              method: 'tools/call',
              params: { _meta: meta, name: 'brew_tea', arguments: { seconds: 1 } },
            }),
          ),
        );
        socket.on('message', (data: Buffer) => {
          const message = JSON.parse(data.toString('utf8'));
          if (message.id === 'ws-1') resolve(message);
        });
      });
      expect(reply.result.resultType).toBe('complete');
      expect(reply.result.content[0].text).toContain('tea is ready');
    } finally {
      socket.close();
    }
  });

  it('serves the playground page at /', async () => {
    const page = await fetch(`${demo.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Rondo playground');
    const bundle = await fetch(`${demo.url}/app.js`);
    expect(bundle.headers.get('content-type')).toContain('javascript');
  });

  it('says what is missing when SWI-Prolog is not installed, and still serves', async () => {
    const withoutSwipl = await startDemo([], { PATH: '/nonexistent', RONDO_SWIPL: '' });
    try {
      expect(withoutSwipl.output()).toContain('apt-get install -y swi-prolog-nox');
      const { json } = await post(
        withoutSwipl.url,
        { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta } },
        { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
      );
      expect(json.result.tools.map((tool: { name: string }) => tool.name)).toContain(
        'send_postcard',
      );
    } finally {
      await withoutSwipl.stop();
    }
  });
});

describe('the demo for desktop hosts (--stdio)', { timeout: scaled(60_000) }, () => {
  it('writes nothing but protocol messages on stdout and exits when stdin ends', async () => {
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } },
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta } },
    ];
    const child = execFile(process.execPath, [demoMain, '--stdio'], {
      cwd: repoRoot,
      timeout: 60_000,
    });
    child.stdin!.end(lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    let stdout = '';
    child.stdout!.on('data', (chunk: string) => (stdout += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    const messages = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(messages.map((message) => message.id)).toEqual([1, 2]);
    expect(messages[1].result.tools.map((tool: { name: string }) => tool.name)).toContain(
      'plan_trip',
    );
  });
});

describe('the demo smoke mode used by .ci/run', { timeout: scaled(90_000) }, () => {
  it('checks discover, initialize, a WebSocket call and the lamp App, then exits 0', async () => {
    const { stderr } = await promisify(execFile)(process.execPath, [demoMain], {
      cwd: repoRoot,
      env: { ...process.env, RONDO_DEMO_SMOKE: '1' },
      timeout: 60_000,
    });
    expect(stderr).toContain('Rondo demo smoke: 4 of 4 checks passed');
  });
});
