import { afterEach, describe, expect, it } from 'vitest';
import { RawFixture, modernMeta } from '../stdio/support/fixture.js';
import { startFixtureHttp, type FixtureHttp } from './support/fixtureServer.js';

// Issue 29: a 2025-style request sent without a session (no initialize first) was answered
// "params._meta is required", a 2026-era rule a 2025 client cannot act on. The answer now names
// both ways in, leading with the one the MCP-Protocol-Version header points at; its code stays
// -32602 (HTTP 400), which the conformance suite expects for a request without _meta.

const NAMES_BOTH = /initialize first[\s\S]*params\._meta|params\._meta[\s\S]*initialize first/;

let http: FixtureHttp | undefined;
let stdio: RawFixture | undefined;
afterEach(async () => {
  await http?.close();
  http = undefined;
  await stdio?.end();
  stdio = undefined;
});

async function post(headers: Record<string, string>, body: object) {
  http ??= await startFixtureHttp();
  const response = await fetch(http.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as { error: { code: number; message: string } },
  };
}

describe('issue 29: a request without a session or _meta', () => {
  it('over HTTP with MCP-Protocol-Version 2025-11-25: says to send initialize first, and names _meta', async () => {
    const answer = await post(
      { 'mcp-protocol-version': '2025-11-25' },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe(-32602);
    const message = String(answer.body.error.message);
    expect(message).toMatch(
      /^Invalid params: this 2025-11-25 request has no session: send initialize first/,
    );
    expect(message).toMatch(NAMES_BOTH);
    expect(message).toContain('2026-07-28');
  });

  it('over HTTP with MCP-Protocol-Version 2026-07-28: leads with _meta, and names initialize', async () => {
    const answer = await post(
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe(-32602);
    const message = String(answer.body.error.message);
    expect(message).toMatch(/^Invalid params: params\._meta is required: a 2026-07-28 request/);
    expect(message).toMatch(/2025-11-25 or 2025-06-18 client sends initialize first/);
  });

  it('over stdio (no header): names both ways in, and the session still serves both eras', async () => {
    stdio = new RawFixture();
    const answer = await stdio.request(1, 'tools/list');
    expect(answer.error).toMatchObject({ code: -32602 });
    expect(String((answer.error as { message: string }).message)).toMatch(NAMES_BOTH);
    const modern = await stdio.request(2, 'tools/list', { _meta: modernMeta() });
    expect(modern.result).toBeDefined();
  });
});
