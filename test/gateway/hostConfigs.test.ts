import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, httpTransport } from '@rondo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { startEverythingSse, type EverythingSse } from './everythingSse.js';
import { FIXTURE_MAIN, startGateway, type RunningGateway } from './support.js';

// Issue 40, done-when 3: a VS Code `.vscode/mcp.json` as users write it (comments, `servers`,
// `type`, `${env:NAME}`), with a legacy `"type": "sse"` upstream (server-everything's own sse
// mode), served by the gateway as it is.

let everything: EverythingSse;
let gateway: RunningGateway;
beforeAll(async () => {
  everything = await startEverythingSse();
  const workspace = mkdtempSync(join(tmpdir(), 'rondo-vscode-'));
  mkdirSync(join(workspace, '.vscode'));
  const config = join(workspace, '.vscode', 'mcp.json');
  writeFileSync(
    config,
    `{
  // The remote everything server, on the HTTP+SSE transport of 2024-11-05.
  "servers": {
    "everything": { "type": "sse", "url": "http://127.0.0.1:\${env:EVERYTHING_PORT}/sse" },
    "fixture": {
      "type": "stdio",
      "command": "\${env:GATEWAY_TEST_NODE}",
      "args": [${JSON.stringify(FIXTURE_MAIN)}],
      "env": { "RONDO_STATE_KEY": "\${UPSTREAM_STATE_KEY}" },
    },
  },
  "inputs": [],
}
`,
  );
  process.env.EVERYTHING_PORT = String(everything.port);
  process.env.GATEWAY_TEST_NODE = process.execPath;
  process.env.UPSTREAM_STATE_KEY = 'rondo-gateway-upstream-state-key-0123456789';
  gateway = await startGateway(config);
}, scaled(60_000));
afterAll(async () => {
  await gateway?.close();
  await everything?.stop();
});

describe.each(['2026-07-28', '2025-11-25'] as const)(
  'a VS Code mcp.json with a legacy SSE upstream, to a %s client',
  { timeout: scaled(60_000) },
  (era) => {
    it("serves both entries' tools and calls them", async () => {
      const client = new Client({ transport: httpTransport({ url: gateway.url.href }), era });
      await client.connect();
      try {
        const names = (await client.listAllTools()).map((tool) => tool.name);
        expect(names).toEqual(
          expect.arrayContaining(['everything_echo', 'fixture_test_simple_text']),
        );
        const echoed = await client.callTool('everything_echo', { message: `over sse to ${era}` });
        expect(JSON.stringify(echoed.content)).toContain(`over sse to ${era}`);
        const fixture = await client.callTool('fixture_test_simple_text');
        expect(fixture.content[0]).toMatchObject({ type: 'text' });
      } finally {
        await client.close();
      }
    });
  },
);

describe('the readiness of an SSE upstream', () => {
  it('reports it connected in the legacy era', async () => {
    const report = (await (await fetch(new URL('/readyz', gateway.url))).json()) as {
      upstreams: Record<string, { state: string; era?: string }>;
    };
    expect(report.upstreams.everything).toMatchObject({ state: 'connected', era: 'legacy' });
  });
});
