import { existsSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_CLI, startFixtureProcess, type FixtureProcess } from './support/fixtureProcess.js';
import { WsClientTransport } from './support/wsClientTransport.js';

const built = existsSync(FIXTURE_CLI);
if (!built)
  console.warn(`modern WebSocket client test skipped: the fixture is not built (${FIXTURE_CLI})`);

let fixture: FixtureProcess;
let client: Client;
let transport: WsClientTransport;
beforeAll(async () => {
  if (built) fixture = await startFixtureProcess();
});
afterAll(async () => {
  await fixture?.stop();
});
afterEach(async () => {
  await client?.close();
});

async function connectModern(): Promise<void> {
  client = new Client(
    { name: 'modern-ws-test', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  client.setRequestHandler('elicitation/create', async () => ({
    action: 'accept',
    content: { name: 'Alice' },
  }));
  transport = new WsClientTransport(fixture.url);
  await client.connect(transport);
}

describe.skipIf(!built)('the official v2 client in the modern era over WebSocket', () => {
  it('negotiates 2026-07-28 with server/discover and no initialize', async () => {
    await connectModern();
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(transport.sent.map((m) => m.method)).not.toContain('initialize');
  });
});
