import { request, type IncomingMessage } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { BIRDS_PL, modern, startCli, type RunningCli } from './support/cli.js';

// Issue 31: behind a reverse proxy every connection comes from the proxy, so the CLIs that serve
// HTTP take `--client-address-header` (or RONDO_CLIENT_ADDRESS_HEADER) to tell its clients apart.
// Each CLI, started from its built dist, is flooded with `subscriptions/listen` streams by one
// forwarded address up to the per-client cap (100 by default): that address is refused its next
// stream (503) while another forwarded address still opens one. Bounded: 102 streams per CLI.

const PER_CLIENT = 100;
const running: RunningCli[] = [];
const held: IncomingMessage[] = [];
afterAll(async () => {
  for (const res of held) res.destroy();
  await Promise.all(running.map((cli) => cli.stop()));
});

/** Opens a `subscriptions/listen` stream on `url` as the client `forwardedFor`; its status. */
function listenAs(url: string, forwardedFor: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
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
      JSON.stringify(
        modern(held.length + 1, 'subscriptions/listen', {
          notifications: { toolsListChanged: true },
        }),
      ),
    );
  });
}

describe('--client-address-header through the real CLIs', { timeout: scaled(90_000) }, () => {
  it.each([
    ['the demo', 'demo', ['--no-prolog', '--port', '0'], '/mcp'],
    ['rondo-logtalk', 'logtalk', ['--transport', 'http', '--port', '0', BIRDS_PL], ''],
  ] as const)(
    '%s gives each forwarded address its own streams',
    async (_label, cli, args, path) => {
      const server = await startCli(cli, [...args, '--client-address-header', 'x-forwarded-for']);
      running.push(server);
      const url = `${server.url}${path}`;
      const statuses = [];
      for (let n = 0; n < PER_CLIENT; n += 1) statuses.push(await listenAs(url, '198.51.100.1'));
      expect(statuses.filter((status) => status === 200)).toHaveLength(PER_CLIENT);
      expect(await listenAs(url, '198.51.100.1')).toBe(503);
      expect(await listenAs(url, '198.51.100.2')).toBe(200);
    },
  );
});
