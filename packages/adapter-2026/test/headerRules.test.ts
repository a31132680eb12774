import { afterEach, describe, expect, it } from 'vitest';
import { ModernClient, VERSION, meta, standardHeaders } from './support/modernClient.js';
import { buildTestServer } from './support/testServer.js';

const clients: ModernClient[] = [];
function client(): ModernClient {
  const created = new ModernClient(buildTestServer());
  clients.push(created);
  return created;
}
afterEach(() => {
  for (const used of clients.splice(0)) used.expectValidWire();
});

const base64 = (value: string) => `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;

async function expectMismatch(
  c: ModernClient,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string>,
) {
  const error = await c.error(method, params, { headers });
  expect(error.code).toBe(-32020);
  expect(c.lastDisposition).toBe('refused');
  return error;
}

describe('standard headers', () => {
  it('accepts requests whose headers mirror the body', async () => {
    const c = client();
    expect(
      (await c.result('tools/list', {}, { headers: standardHeaders('tools/list') })).tools.length,
    ).toBeGreaterThan(0);
    await c.result(
      'tools/call',
      { name: 'greet', arguments: {} },
      { headers: standardHeaders('tools/call', 'greet') },
    );
    await c.result(
      'prompts/get',
      { name: 'with_args', arguments: { a: '1' } },
      { headers: standardHeaders('prompts/get', 'with_args') },
    );
    await c.result(
      'resources/read',
      { uri: 'test://static' },
      { headers: standardHeaders('resources/read', 'test://static') },
    );
  });

  it('rejects an Mcp-Method that differs from the body, is missing, or differs in case', async () => {
    const c = client();
    await expectMismatch(c, 'tools/list', {}, standardHeaders('prompts/list'));
    await expectMismatch(c, 'tools/list', {}, { 'mcp-protocol-version': VERSION });
    await expectMismatch(c, 'tools/list', {}, standardHeaders('TOOLS/LIST'));
  });

  it('rejects a wrong or missing Mcp-Name and accepts one padded with optional whitespace', async () => {
    const c = client();
    await expectMismatch(
      c,
      'tools/call',
      { name: 'greet' },
      standardHeaders('tools/call', 'wrong_tool_name'),
    );
    await expectMismatch(c, 'tools/call', { name: 'greet' }, standardHeaders('tools/call'));
    await expectMismatch(
      c,
      'resources/read',
      { uri: 'test://static' },
      standardHeaders('resources/read', 'test://other'),
    );
    const padded = await c.result(
      'tools/call',
      { name: 'greet', arguments: {} },
      { headers: standardHeaders('tools/call', '  greet\t ') },
    );
    expect(padded.resultType).toBe('input_required');
  });

  it('decodes a Base64 Mcp-Name before comparing it', async () => {
    const c = client();
    const headers = standardHeaders('resources/read', base64('test://static'));
    expect(
      (await c.result('resources/read', { uri: 'test://static' }, { headers })).contents,
    ).toHaveLength(1);
  });

  it('rejects a header version that differs from a supported _meta version with -32020, and an unsupported _meta version with -32022 first (issue 39)', async () => {
    const c = client();
    const v999 = { ...meta(), 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' };
    const header999 = {
      ...standardHeaders('server/discover'),
      'mcp-protocol-version': 'v999.0.0',
    };
    const mismatch = await c.error('server/discover', {}, { meta: meta(), headers: header999 });
    expect(mismatch.code).toBe(-32020);
    // Logtalk's order: the version is checked before the headers, so a client asking for a
    // revision this server lacks learns the supported ones, whether or not its header agrees.
    for (const headers of [standardHeaders('server/discover'), header999]) {
      const unsupported = await c.error('server/discover', {}, { meta: v999, headers });
      expect(unsupported).toMatchObject({
        code: -32022,
        data: { requested: 'v999.0.0', supported: [VERSION] },
      });
    }
    const { 'mcp-protocol-version': _version, ...noVersion } = standardHeaders('server/discover');
    await expectMismatch(c, 'server/discover', {}, noVersion);
  });

  it('rejects header values with characters a field value cannot hold', async () => {
    const c = client();
    await expectMismatch(
      c,
      'tools/call',
      { name: 'greet' },
      standardHeaders('tools/call', 'gr\u00e9et'),
    );
  });
});

describe('Mcp-Param headers of x-mcp-header properties', () => {
  const call = (args: Record<string, unknown>, extra: Record<string, string>) =>
    [
      'tools/call',
      { name: 'regional', arguments: args },
      { ...standardHeaders('tools/call', 'regional'), ...extra },
    ] as const;

  it('accepts a Base64 value that decodes to the argument and a literal without the sentinel', async () => {
    const c = client();
    const [, params, headers] = call(
      { region: 'Hello' },
      { 'mcp-param-region': '=?base64?SGVsbG8=?=' },
    );
    expect((await c.result('tools/call', params, { headers })).content[0].text).toBe(
      'region=Hello',
    );
    const [, literalParams, literalHeaders] = call(
      { region: 'SGVsbG8=' },
      { 'mcp-param-region': 'SGVsbG8=' },
    );
    await c.result('tools/call', literalParams, { headers: literalHeaders });
    const [, unicodeParams, unicodeHeaders] = call(
      { region: ' Hello, 世界 ' },
      { 'mcp-param-region': base64(' Hello, 世界 ') },
    );
    await c.result('tools/call', unicodeParams, { headers: unicodeHeaders });
  });

  it('rejects bad Base64 padding and characters outside the alphabet', async () => {
    const c = client();
    await expectMismatch(
      c,
      ...call({ region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVsbG8?=' }),
    );
    await expectMismatch(
      c,
      ...call({ region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVs!!!bG8=?=' }),
    );
    await expectMismatch(
      c,
      ...call({ region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVsbG9=?=' }),
    );
  });

  it('rejects a missing header when the body has the value, and a header whose argument is absent', async () => {
    const c = client();
    await expectMismatch(c, ...call({ region: 'Hello' }, {}));
    await expectMismatch(c, ...call({}, { 'mcp-param-region': 'Hello' }));
    const [, params, headers] = call({ region: null }, {});
    expect((await c.result('tools/call', params, { headers })).isError).toBe(true);
  });

  it('compares integers numerically, booleans as true/false, and follows nested properties', async () => {
    const c = client();
    const [, params, headers] = call(
      { count: 42, flag: true, nested: { zone: 'z1' } },
      { 'mcp-param-count': '42.0', 'mcp-param-flag': 'true', 'mcp-param-zone': 'z1' },
    );
    await c.result('tools/call', params, { headers });
    await expectMismatch(c, ...call({ count: 42 }, { 'mcp-param-count': '43' }));
    await expectMismatch(c, ...call({ flag: true }, { 'mcp-param-flag': 'True' }));
    await expectMismatch(c, ...call({ nested: { zone: 'z1' } }, { 'mcp-param-zone': 'z2' }));
  });

  it('accepts a notification that carries only the protocol version header', async () => {
    const c = client();
    c.memory.send(
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } },
      { 'mcp-protocol-version': VERSION },
    );
    expect(c.written).toHaveLength(0);
  });
});
