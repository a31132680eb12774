import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureHttp, type FixtureHttp } from './support/fixtureServer.js';

const MODERN_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
};
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('the fixture over HTTP refuses bad requests with the exact status and code', () => {
  let fixture: FixtureHttp;
  beforeAll(async () => {
    fixture = await startFixtureHttp();
  });
  afterAll(() => fixture.close());

  const postRaw = (body: string, headers: Record<string, string> = {}) =>
    fetch(fixture.url, { method: 'POST', headers: { ...MODERN_HEADERS, ...headers }, body });

  it('answers a modern request without _meta with 400, -32602 and its id', async () => {
    const response = await postRaw(
      JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'server/discover', params: {} }),
      {
        'mcp-method': 'server/discover',
      },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      id: 7,
      error: { code: -32602, data: { invalidMeta: '_meta' } },
    });
  });

  it('answers a legacy request without Mcp-Session-Id with 400', async () => {
    const response = await fetch(fixture.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: 9, error: { code: -32602 } });
  });

  it('answers a header mismatch with 400 and -32020', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/list',
      params: { _meta: META },
    });
    const response = await postRaw(body, { 'mcp-method': 'prompts/list' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: 9, error: { code: -32020 } });
  });

  it('answers GET without a session with 405', async () => {
    const response = await fetch(fixture.url, { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(405);
  });
});
