import { request, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { createDemoServer, type DemoServer } from '../src/demoServer.js';
import { isLoopback, startDemoHttp, type DemoHttpOptions } from '../src/httpApp.js';

// Issue 31, point 10: the demo's own HTTP server shows its traffic only where asked, hides
// secrets in it, shares its stream slots between clients and has serveHttp's connection limits.
let demo: DemoServer;
beforeAll(async () => {
  demo = await createDemoServer({ withoutProlog: true, log: () => {} });
});
afterAll(() => demo.close());

async function withWeb(
  options: Partial<DemoHttpOptions>,
  body: (base: string, port: number) => Promise<void>,
): Promise<void> {
  const web = await startDemoHttp(demo.endpoint, {
    host: '127.0.0.1',
    port: 0,
    publicDir: '/nonexistent',
    traffic: demo.traffic,
    ...options,
  });
  const port = Number(new URL(web.url).port);
  try {
    await body(`http://127.0.0.1:${port}`, port);
  } finally {
    await web.close();
  }
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('the /traffic view', { timeout: scaled(30_000) }, () => {
  it('is off by default on a non-loopback address, on for loopback, on when asked', async () => {
    await withWeb({ host: '0.0.0.0' }, async (base) => {
      expect((await fetch(`${base}/traffic`)).status).toBe(404);
    });
    await withWeb({ host: '127.0.0.1' }, async (base) => {
      expect((await fetch(`${base}/traffic`)).status).toBe(200);
    });
    await withWeb({ host: '0.0.0.0', showTraffic: true }, async (base) => {
      expect((await fetch(`${base}/traffic`)).status).toBe(200);
    });
    await withWeb({ host: '127.0.0.1', showTraffic: false }, async (base) => {
      expect((await fetch(`${base}/traffic`)).status).toBe(404);
    });
    expect(['127.0.0.1', '127.8.0.1', '::1', 'localhost'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '::', '192.168.1.2', 'example.test'].some(isLoopback)).toBe(false);
  });

  it('does not show a secret a client put in a resource URI', async () => {
    await withWeb({}, async (base) => {
      const uri = 'demo://notes?api_key=sk-live-0123456789&user=ann';
      await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'resources/read',
          'mcp-name': uri,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'resources/read',
          params: { uri, _meta: META },
        }),
      }).then((response) => response.text());
      const view = await (await fetch(`${base}/traffic`)).text();
      expect(view).toContain('demo://notes?api_key=[redacted]');
      expect(view).not.toContain('sk-live-0123456789');
    });
  });

  it('gives one client at most 2 of the stream slots', async () => {
    await withWeb({}, async (base) => {
      const controller = new AbortController();
      const open = () => fetch(`${base}/traffic/stream`, { signal: controller.signal });
      try {
        const first = await open();
        const second = await open();
        const third = await open();
        expect([first.status, second.status, third.status]).toEqual([200, 200, 503]);
        expect(await third.text()).toMatch(/at most 2 per client/);
      } finally {
        controller.abort();
      }
    });
  });
});

describe("the demo's HTTP server", { timeout: scaled(30_000) }, () => {
  it("has serveHttp's connection limits by default", async () => {
    const web = await startDemoHttp(demo.endpoint, {
      host: '127.0.0.1',
      port: 0,
      publicDir: '/nonexistent',
    });
    try {
      expect(web.httpServer.headersTimeout).toBe(10_000);
      expect(web.httpServer.requestTimeout).toBe(30_000);
      expect(web.httpServer.keepAliveTimeout).toBe(5_000);
      expect(web.httpServer.maxConnections).toBe(10_000);
    } finally {
      await web.close();
    }
  });

  it('cuts a slowloris connection at its header timeout', async () => {
    await withWeb({ limits: { headersTimeoutMs: 1_000 } }, async (_base, port) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
      const dribble = setInterval(() => socket.writable && socket.write('a'), 200);
      const started = Date.now();
      // Node's own default would hold it for 60 s; the deadline here leaves room for a busy machine.
      const closed = await new Promise<boolean>((resolve) => {
        socket.once('close', () => resolve(true));
        setTimeout(() => resolve(false), 8_000);
      });
      clearInterval(dribble);
      socket.destroy();
      expect(closed).toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    });
  });
});

/** Opens a `subscriptions/listen` stream as the client `forwardedFor`; resolves its status. */
function listenAs(port: number, forwardedFor: string, held: IncomingMessage[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path: '/mcp',
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'subscriptions/listen',
        'x-forwarded-for': forwardedFor,
      },
    });
    req.once('error', reject);
    req.once('response', (res) => {
      res.on('error', () => undefined);
      held.push(res);
      resolve(res.statusCode ?? 0);
    });
    req.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: held.length + 1,
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true }, _meta: META },
      }),
    );
  });
}

describe('the demo behind a proxy (--client-address-header)', { timeout: scaled(60_000) }, () => {
  // Issue 31: the per-client stream cap (100 by default) counts the client the proxy names.
  const flood = async (options: Partial<DemoHttpOptions>): Promise<[number, number]> => {
    const held: IncomingMessage[] = [];
    let answer: [number, number] = [0, 0];
    await withWeb(options, async (_base, port) => {
      try {
        const opened = [];
        for (let n = 0; n < 100; n += 1) opened.push(await listenAs(port, '198.51.100.1', held));
        expect(opened.every((status) => status === 200)).toBe(true);
        answer = [
          await listenAs(port, '198.51.100.1', held),
          await listenAs(port, '198.51.100.2', held),
        ];
      } finally {
        for (const res of held) res.destroy();
      }
    });
    return answer;
  };

  it('gives each forwarded address its own share of streams', async () => {
    expect(await flood({ clientAddressHeader: 'x-forwarded-for' })).toEqual([503, 200]);
  });

  it('without it, counts every client behind the proxy as one', async () => {
    expect(await flood({})).toEqual([503, 503]);
  });

  it('gives each forwarded address its own /traffic/stream slots', async () => {
    await withWeb({ clientAddressHeader: 'x-forwarded-for' }, async (base) => {
      const controller = new AbortController();
      const open = (address: string) =>
        fetch(`${base}/traffic/stream`, {
          signal: controller.signal,
          headers: { 'x-forwarded-for': `203.0.113.9, ${address}` },
        }).then((response) => response.status);
      try {
        const first = [await open('198.51.100.1'), await open('198.51.100.1')];
        // The third from the same client is refused; another client behind the proxy is not.
        expect([...first, await open('198.51.100.1'), await open('198.51.100.2')]).toEqual([
          200, 200, 503, 200,
        ]);
      } finally {
        controller.abort();
      }
    });
  });
});
