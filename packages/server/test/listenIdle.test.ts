import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { createServer, serve, text } from '@rondo/server';

// Issue 31, point 2: a `subscriptions/listen` stream on which nothing was sent for
// `listenIdleTimeoutMs` ends with its result (the client opens a new one), so a forgotten
// subscription does not hold its stream for ever.

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'listen-idle', version: '1.0.0' },
};

/** POSTs `subscriptions/listen` and collects the SSE data lines until the response ends. */
function listen(url: string): Promise<{ events: Record<string, unknown>[]; ms: number }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 'listen-1',
    method: 'subscriptions/listen',
    params: { _meta: META, notifications: { toolsListChanged: true } },
  });
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'subscriptions/listen',
      },
    });
    req.once('error', reject);
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.once('end', () =>
        resolve({
          ms: Date.now() - started,
          events: text
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>),
        }),
      );
    });
    req.end(body);
  });
}

describe('subscriptions/listen idle limit', () => {
  it(
    'ends an idle subscription with its result after listenIdleTimeoutMs',
    { timeout: scaled(20_000) },
    async () => {
      const server = createServer({
        name: 'idle',
        version: '1.0.0',
        requestState: { key: 'listen-idle-key-0123456789abcdef01234567' },
      }).tool('t', { description: 'A tool.' }, () => text('t'));
      const running = await serve(server, {
        transport: 'http',
        eras: { modern: { listenIdleTimeoutMs: 400 } },
      });
      try {
        const { events, ms } = await listen(running.url);
        expect(events[0]).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
        expect(events.at(-1)).toMatchObject({
          id: 'listen-1',
          result: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } },
        });
        // Not before the limit: the point is the idle time, not a fixed lifetime.
        expect(ms).toBeGreaterThanOrEqual(350);
      } finally {
        await running.close();
      }
    },
  );

  it('refuses a negative listenIdleTimeoutMs', async () => {
    const server = createServer({ name: 'idle', version: '1.0.0' });
    await expect(
      serve(server, { transport: 'http', eras: { modern: { listenIdleTimeoutMs: -1 } } }),
    ).rejects.toThrow(/listenIdleTimeoutMs/);
  });
});
