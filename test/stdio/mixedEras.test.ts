import { afterEach, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { RawFixture, fixtureServerParams, modernMeta } from './support/fixture.js';
import { tapTransport, type WireTap } from './support/clientTap.js';
import { formAnswer, textOf } from './support/wire.js';
import { WireValidator } from '@rondo/test-support/specSchemas';

// Issue 4, done-when 2 and 4: the v2 client in its (default) legacy mode gets round hooks through
// the shim; one fixture binary serves both eras, in two processes and within one process.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
}, scaled(30_000));

function v2Client(mode: 'legacy' | 'modern', answers: Record<string, string>) {
  const client = new ModernClient(
    { name: `rondo-v2-${mode}-test`, version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      ...(mode === 'modern'
        ? { versionNegotiation: { mode: { pin: '2026-07-28' as const } } }
        : {}),
    },
  );
  client.setRequestHandler('elicitation/create', async (request) => ({
    action: 'accept',
    content: formAnswer(request.params, answers),
  }));
  return client;
}

async function connect(
  client: ModernClient,
  revision: '2025-11-25' | '2026-07-28',
): Promise<WireTap> {
  const transport = new ModernStdio(fixtureServerParams());
  const tap = tapTransport(transport);
  await client.connect(transport);
  closers.push(async () => {
    await client.close();
    const validator = WireValidator.load(revision);
    if (validator) expect(validator.problems(tap.received, tap.sent)).toEqual([]);
  });
  return tap;
}

describe('the v2 client in legacy mode over stdio', { timeout: scaled(30_000) }, () => {
  it.each([
    ['test_input_required_result_elicitation', 'Hello, Carol!'],
    ['test_input_required_result_multi_round', 'Hello, Carol! Your favorite color is red.'],
  ])('completes %s through real elicitation/create requests', async (name, expected) => {
    const client = v2Client('legacy', { name: 'Carol', color: 'red' });
    const tap = await connect(client, '2025-11-25');
    expect(client.getProtocolEra()).toBe('legacy');
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(textOf(await client.callTool({ name, arguments: {} }))).toBe(expected);
    expect(tap.received.some((m) => m.method === 'elicitation/create')).toBe(true);
    expect(tap.received.some((m) => m.result?.resultType !== undefined)).toBe(false);
  });
});

describe('one fixture binary, both eras', { timeout: scaled(30_000) }, () => {
  it('serves a legacy client and a modern client at the same time (two processes)', async () => {
    const legacy = new LegacyClient({ name: 'rondo-v1', version: '1.0.0' }, { capabilities: {} });
    const legacyTransport = new LegacyStdio(fixtureServerParams());
    const legacyTap = tapTransport(legacyTransport);
    const modern = v2Client('modern', { name: 'Dave' });
    await Promise.all([legacy.connect(legacyTransport), connect(modern, '2026-07-28')]);
    closers.push(async () => {
      await legacy.close();
      const validator = WireValidator.load('2025-11-25');
      if (validator) expect(validator.problems(legacyTap.received, legacyTap.sent)).toEqual([]);
    });
    const [old, fresh] = await Promise.all([
      legacy.callTool({ name: 'test_simple_text', arguments: {} }),
      modern.callTool({ name: 'test_input_required_result_elicitation', arguments: {} }),
    ]);
    expect(textOf(old)).toBe('This is a simple text response for testing.');
    expect(textOf(fresh)).toBe('Hello, Dave!');
    expect(legacy.getServerVersion()?.name).toBe(modern.getServerVersion()?.name);
    expect(modern.getProtocolEra()).toBe('modern');
  });

  it('answers a modern server/discover in a process whose legacy session already began', async () => {
    const fixture = new RawFixture();
    closers.push(async () => {
      fixture.kill();
    });
    const init = await fixture.request(1, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1.0.0' },
    });
    expect(init.result?.protocolVersion).toBe('2025-11-25');
    fixture.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const legacyList = await fixture.request(2, 'tools/list');
    expect(legacyList.result?.tools?.length).toBeGreaterThan(0);
    expect(legacyList.result?.resultType).toBeUndefined();

    const discover = await fixture.request(3, 'server/discover', { _meta: modernMeta() });
    expect(discover.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: expect.arrayContaining(['2026-07-28']),
    });
    const modernCall = await fixture.request(4, 'tools/call', {
      _meta: modernMeta(),
      name: 'test_simple_text',
    });
    expect(modernCall.result?.resultType).toBe('complete');

    // The legacy session is still there and still legacy.
    const legacyCall = await fixture.request(5, 'tools/call', {
      name: 'test_simple_text',
      arguments: {},
    });
    expect(legacyCall.result).not.toHaveProperty('resultType');
    expect(await fixture.request(6, 'ping')).toMatchObject({ result: {} });
    expect(await fixture.end()).toBe(0);

    const legacyIds = new Set<unknown>([1, 2, 5, 6]);
    const byEra = (ids: Set<unknown>, keep: boolean) =>
      fixture.lines.filter((m) => ids.has(m.id) === keep);
    const legacyValidator = WireValidator.load('2025-11-25');
    if (legacyValidator)
      expect(legacyValidator.problems(byEra(legacyIds, true), fixture.sent)).toEqual([]);
    const modernValidator = WireValidator.load('2026-07-28');
    if (modernValidator)
      expect(modernValidator.problems(byEra(legacyIds, false), fixture.sent)).toEqual([]);
  });
});
