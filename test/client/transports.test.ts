import { fileURLToPath } from 'node:url';
import { Client, inMemoryTransport, type ClientTransport, type EraChoice } from '@rondo/client';
import { nodeHttpTransport, stdioTransport, webSocketTransport } from '@rondo/client/node';
import { createFixtureEndpoint } from '@rondo/conformance-fixture';
import { serveHttp } from '@rondo/transport-http';
import { httpTransport } from '@rondo/client';
import { serveWebSocket } from '@rondo/transport-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientScenarios, scenarioHandlers } from './scenarioTable.js';

// Issue 25, done-when 3: one scenario table (scenarioTable.ts) against a Rondo server (the
// conformance fixture) over stdio, Streamable HTTP (on the global fetch and on node:http),
// WebSocket and in memory, in both eras.
const FIXTURE = fileURLToPath(
  new URL('../../apps/conformance-fixture/dist/main.js', import.meta.url),
);

interface Served {
  transport(): ClientTransport;
  close(): Promise<void>;
}

const servers: Record<string, () => Promise<Served>> = {
  stdio: () =>
    Promise.resolve({
      transport: () => stdioTransport({ command: process.execPath, args: [FIXTURE] }),
      close: () => Promise.resolve(),
    }),
  http: async () => {
    const endpoint = createFixtureEndpoint();
    const handle = await serveHttp(endpoint, { port: 0 });
    return {
      transport: () => httpTransport({ url: handle.url }),
      close: async () => {
        await handle.close();
        await endpoint.close();
      },
    };
  },
  'http (node:http)': async () => {
    const endpoint = createFixtureEndpoint();
    const handle = await serveHttp(endpoint, { port: 0 });
    return {
      transport: () => nodeHttpTransport({ url: handle.url }),
      close: async () => {
        await handle.close();
        await endpoint.close();
      },
    };
  },
  websocket: async () => {
    const endpoint = createFixtureEndpoint();
    const handle = await serveWebSocket(endpoint, { port: 0, keepAlive: false });
    return {
      transport: () => webSocketTransport({ url: handle.url }),
      close: async () => {
        await handle.close();
        await endpoint.close();
      },
    };
  },
  'in-memory': () => {
    const endpoint = createFixtureEndpoint();
    return Promise.resolve({
      transport: () => inMemoryTransport(endpoint),
      close: () => endpoint.close(),
    });
  },
};

const ERAS: { era: EraChoice; expected: 'legacy' | 'modern' }[] = [
  { era: '2026-07-28', expected: 'modern' },
  { era: '2025-11-25', expected: 'legacy' },
];

for (const [transportName, start] of Object.entries(servers)) {
  describe(`the client over ${transportName}`, () => {
    let served: Served;
    beforeAll(async () => {
      served = await start();
    });
    afterAll(async () => {
      await served.close();
    });

    for (const { era, expected } of ERAS) {
      describe(`pinned to ${era}`, () => {
        let client: Client;
        beforeAll(async () => {
          client = new Client({ transport: served.transport(), era, handlers: scenarioHandlers });
          const facts = await client.connect();
          expect(facts.era).toBe(expected);
        });
        afterAll(async () => {
          await client.close();
        });
        for (const scenario of clientScenarios) {
          it(scenario.name, () => scenario.run(client));
        }
      });
    }

    it('negotiates the modern era with auto', async () => {
      const client = new Client({ transport: served.transport() });
      try {
        expect((await client.connect()).protocolVersion).toBe('2026-07-28');
      } finally {
        await client.close();
      }
    });
  });
}
