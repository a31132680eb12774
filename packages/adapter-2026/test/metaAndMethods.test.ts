import { afterEach, describe, expect, it } from 'vitest';
import { ModernClient, VERSION, meta } from './support/modernClient.js';
import { buildTestServer } from './support/testServer.js';

const clients: ModernClient[] = [];
function client(options?: ConstructorParameters<typeof ModernClient>[1]): ModernClient {
  const created = new ModernClient(buildTestServer(), options);
  clients.push(created);
  return created;
}
afterEach(() => {
  for (const used of clients.splice(0)) used.expectValidWire();
});

const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

describe('per-request _meta', () => {
  it('rejects a request without _meta with -32602 naming _meta (HTTP 400)', async () => {
    const c = client();
    const error = await c.error('server/discover', {}, { noMeta: true });
    expect(error).toMatchObject({ code: -32602, data: { invalidMeta: '_meta' } });
    expect(c.lastDisposition).toBe('refused');
    expect((await c.error('tools/list', undefined, { noMeta: true })).data).toEqual({
      invalidMeta: '_meta',
    });
  });

  it('rejects a _meta without the protocol version or the client capabilities', async () => {
    const c = client();
    const { [PROTOCOL_VERSION]: _v, ...noVersion } = meta();
    const { [CAPABILITIES]: _c, ...noCapabilities } = meta();
    const missingVersion = await c.error('server/discover', {}, { meta: noVersion });
    expect(missingVersion).toMatchObject({ code: -32602, data: { invalidMeta: PROTOCOL_VERSION } });
    const missingCapabilities = await c.error('server/discover', {}, { meta: noCapabilities });
    expect(missingCapabilities).toMatchObject({
      code: -32602,
      data: { invalidMeta: CAPABILITIES },
    });
    expect(c.lastDisposition).toBe('refused');
    const badCapabilities = await c.error(
      'tools/list',
      {},
      { meta: { ...noCapabilities, [CAPABILITIES]: 'all' } },
    );
    expect(badCapabilities.data).toEqual({ invalidMeta: CAPABILITIES });
  });

  it('rejects an unknown log level and a malformed progress token', async () => {
    const c = client();
    const level = await c.error(
      'tools/list',
      {},
      { meta: meta({}, { 'io.modelcontextprotocol/logLevel': 'loud' }) },
    );
    expect(level).toMatchObject({
      code: -32602,
      data: { invalidMeta: 'io.modelcontextprotocol/logLevel' },
    });
    const token = await c.error('tools/list', {}, { meta: meta({}, { progressToken: 1.5 }) });
    expect(token).toMatchObject({ code: -32602, data: { invalidMeta: 'progressToken' } });
  });

  it('accepts a request without clientInfo', async () => {
    const c = client();
    const { ['io.modelcontextprotocol/clientInfo']: _info, ...withoutInfo } = meta({});
    expect((await c.result('server/discover', {}, { meta: withoutInfo })).resultType).toBe(
      'complete',
    );
  });

  it('answers an unsupported version with -32022, the supported versions and the requested one', async () => {
    const c = client({ alsoSupported: ['2025-11-25'] });
    const error = await c.error(
      'server/discover',
      {},
      { meta: { ...meta({}), [PROTOCOL_VERSION]: 'v999.0.0' } },
    );
    expect(error).toMatchObject({
      code: -32022,
      data: { supported: [VERSION, '2025-11-25'], requested: 'v999.0.0' },
    });
    expect(c.lastDisposition).toBe('refused');
    const discovered = await c.result('server/discover');
    expect(discovered.supportedVersions).toEqual(error.data.supported);
  });
});

describe('the method table', () => {
  it.each([
    'initialize',
    'ping',
    'logging/setLevel',
    'resources/subscribe',
    'resources/unsubscribe',
    'unknown/method',
  ])('answers %s with -32601 (HTTP 404), echoing the id', async (method) => {
    const c = client();
    const answer = await c.call(
      method,
      { level: 'info', uri: 'test://static' },
      { id: `req-${method}` },
    );
    expect(answer).toMatchObject({ id: `req-${method}`, error: { code: -32601 } });
    expect(c.lastDisposition).toBe('unknown');
  });

  it('answers a legacy initialize without _meta with -32601 naming the supported versions', async () => {
    const c = client();
    const error = await c.error(
      'initialize',
      { protocolVersion: '2025-11-25', capabilities: {} },
      { noMeta: true },
    );
    expect(error).toMatchObject({ code: -32601, data: { supported: [VERSION] } });
  });

  it('refuses a second request with an id that is still in flight', async () => {
    const c = client();
    const first = c.open('tools/call', { name: 'wait_for_cancel' }, { id: 'same' });
    const second = await c.call('tools/call', { name: 'greet' }, { id: 'same' });
    expect(second).toMatchObject({ id: 'same', error: { code: -32600 } });
    c.notify('notifications/cancelled', { requestId: 'same' });
    expect(await first.ended).toBeUndefined();
  });

  it('gives unknown tools and prompts -32602, and a missing resource -32602 with its uri', async () => {
    const c = client();
    expect((await c.error('tools/call', { name: 'nope' })).code).toBe(-32602);
    expect((await c.error('prompts/get', { name: 'nope' })).code).toBe(-32602);
    const uri = 'test://nonexistent-resource-for-conformance-testing';
    expect(await c.error('resources/read', { uri })).toMatchObject({ code: -32602, data: { uri } });
    expect((await c.error('tools/call', {})).code).toBe(-32602);
    expect((await c.error('tools/call', { name: 'greet', arguments: [1] })).code).toBe(-32602);
  });

  it('answers bad tool arguments with a tool execution error, not a protocol error', async () => {
    const c = client();
    const result = await c.result('tools/call', {
      name: 'echo_args',
      arguments: { x: 'not a number' },
    });
    expect(result).toMatchObject({ resultType: 'complete', isError: true });
  });
});
