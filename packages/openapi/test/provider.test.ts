import { createServer } from '@rondo/core';
import { runtimeOf } from '@rondo/core/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenApiDocumentError, loadDocument, openApiProvider, toJsonSchema } from '../src/index.js';
import { backend, example } from './support.js';

// Issue 45: the OpenAPI provider's configuration: credentials from the document's security
// schemes (API key, bearer, OAuth client credentials), include and exclude by tag and path, the
// per-operation timeout, and documents it refuses.

let http: Awaited<ReturnType<typeof backend>>;
beforeAll(async () => {
  http = await backend();
});
afterAll(() => http.close());

const op = (operationId: string, tags: string[], security?: object[]) => ({
  operationId,
  tags,
  ...(security ? { security } : {}),
  responses: {
    '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } },
  },
});

const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Secured', version: '1' },
  servers: [{ url: 'https://api.example.com' }],
  components: {
    securitySchemes: {
      key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      queryKey: { type: 'apiKey', in: 'query', name: 'api_key' },
      bearer: { type: 'http', scheme: 'bearer' },
      machine: {
        type: 'oauth2',
        flows: { clientCredentials: { tokenUrl: '/token', scopes: { 'read:all': 'read' } } },
      },
    },
  },
  paths: {
    '/keyed': { get: op('keyed', ['a'], [{ key: [] }]) },
    '/query': { get: op('queried', ['a'], [{ queryKey: [] }]) },
    '/bearer': { get: op('bearing', ['b'], [{ bearer: [] }]) },
    '/machine': { get: op('machine', ['b'], [{ machine: ['read:all'] }]) },
    '/admin/purge': { delete: op('purge', ['admin']) },
    '/slow': { get: op('slow', ['a']) },
  },
};

async function call(provider: Awaited<ReturnType<typeof openApiProvider>>, name: string) {
  const server = createServer({ name: 's', version: '1' }).provider(provider);
  const runtime = runtimeOf(server);
  await runtime.ready();
  const ctx = { signal: new AbortController().signal, principal: undefined } as never;
  return runtime.callTool(name, {}, ctx);
}

describe('the OpenAPI provider', () => {
  it('adds the configured credentials where each security scheme says', async () => {
    const provider = await openApiProvider({
      source: DOCUMENT,
      baseUrl: http.url,
      auth: {
        key: { apiKey: 'k-1' },
        queryKey: { apiKey: 'q-1' },
        bearer: { token: 't-1' },
        machine: { clientId: 'svc', clientSecret: 's3cret' },
      },
    });
    http.answer({ status: 200, json: {} });
    await call(provider, 'keyed');
    expect(http.received.at(-1)!.headers['x-api-key']).toBe('k-1');
    await call(provider, 'queried');
    expect(http.received.at(-1)!.url.searchParams.get('api_key')).toBe('q-1');
    await call(provider, 'bearing');
    expect(http.received.at(-1)!.headers.authorization).toBe('Bearer t-1');
    http.answer((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(
          request.url.pathname === '/token' ? { access_token: 'minted', expires_in: 3600 } : {},
        ),
      );
    });
    const before = http.received.length;
    await call(provider, 'machine');
    await call(provider, 'machine');
    const seen = http.received.slice(before);
    // One token request, kept for the second call.
    expect(seen.map((r) => r.url.pathname)).toEqual(['/token', '/machine', '/machine']);
    expect(seen[0]!.headers.authorization).toBe(`Basic ${btoa('svc:s3cret')}`);
    expect(new URLSearchParams(seen[0]!.body).get('grant_type')).toBe('client_credentials');
    expect(new URLSearchParams(seen[0]!.body).get('scope')).toBe('read:all');
    expect(seen[1]!.headers.authorization).toBe('Bearer minted');
  });

  it('keeps the operations chosen by tag and path', async () => {
    const names = async (filter: object) =>
      (await openApiProvider({ source: DOCUMENT, baseUrl: http.url, ...filter }))
        .tools()
        .map((t) => t.name);
    expect(await names({ includeTags: ['b'] })).toEqual(['bearing', 'machine']);
    expect(await names({ excludeTags: ['admin'], excludePaths: ['/slow', '/q*'] })).toEqual([
      'keyed',
      'bearing',
      'machine',
    ]);
    expect(await names({ includePaths: ['/admin/*'] })).toEqual(['purge']);
  });

  it('ends a call past its operation timeout with a tool error', async () => {
    const provider = await openApiProvider({
      source: DOCUMENT,
      baseUrl: http.url,
      timeouts: { slow: 200 },
    });
    http.answer(() => undefined);
    const result = await call(provider, 'slow');
    expect(result).toMatchObject({
      result: { kind: 'error', text: 'GET /slow: no answer within 200 ms' },
    });
  });

  it('cuts an answer past maxResponseBytes and quotes a bounded error body', async () => {
    const provider = await openApiProvider({
      source: DOCUMENT,
      baseUrl: http.url,
      maxResponseBytes: 1000,
    });
    http.answer({ status: 200, json: { data: 'y'.repeat(5000) } });
    const result = await call(provider, 'keyed');
    expect(result).toMatchObject({
      result: { kind: 'error', text: expect.stringContaining('larger than the cap of 1000 bytes') },
    });
  });

  it('refuses a document larger than maxBytes', async () => {
    await expect(
      loadDocument(example('3.0/json/petstore.json'), { maxBytes: 1000 }),
    ).rejects.toThrow('larger than 1000 bytes');
  });

  it('refuses a document that is not OpenAPI 3, credentials for an unknown scheme, and no base URL', async () => {
    await expect(openApiProvider({ source: { swagger: '2.0', paths: {} } })).rejects.toThrow(
      OpenApiDocumentError,
    );
    await expect(
      openApiProvider({ source: DOCUMENT, auth: { nope: { token: 'x' } } }),
    ).rejects.toThrow('auth.nope: the document has no security scheme of that name');
    await expect(openApiProvider({ source: { ...DOCUMENT, servers: [] } })).rejects.toThrow(
      'give baseUrl',
    );
    await expect(openApiProvider({ source: '/nonexistent/api.json' })).rejects.toThrow(
      '/nonexistent/api.json: cannot read: ENOENT',
    );
  });

  it('turns 3.0 schemas into JSON Schema (nullable, formats, circular references)', () => {
    expect(
      toJsonSchema({ type: 'string', nullable: true, format: 'int64', example: 'x', 'x-ext': 1 }),
    ).toEqual({ type: ['string', 'null'] });
    expect(
      toJsonSchema({ type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } }),
    ).toEqual({ type: 'object', properties: { next: {} } });
  });
});
