import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { startGateway, writeConfig, type RunningGateway } from '../gateway/support.js';

// Issue 45, done when 4: the official v2 client (2026-07-28) and v1 client (2025-11-25) list and
// call the tools rondo-gateway makes of an OpenAPI document (the 3.0 petstore of
// @readme/oas-examples), each call reaching a local HTTP backend with the configured API key.

const require = createRequire(import.meta.url);
const PETSTORE = join(
  dirname(require.resolve('@readme/oas-examples/package.json')),
  '3.0/json/petstore.json',
);

const seen: { method: string; url: string; headers: IncomingMessage['headers'] }[] = [];
const backend = createHttpServer((request, response) => {
  seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
  const url = new URL(request.url ?? '/', 'http://backend');
  response.setHeader('content-type', 'application/json');
  if (url.pathname === '/v2/pet/7')
    return response.end(JSON.stringify({ id: 7, name: 'Rex', photoUrls: [] }));
  if (url.pathname === '/v2/pet/findByStatus')
    return response.end(
      JSON.stringify([
        { id: 1, name: 'Tom', photoUrls: [], status: url.searchParams.get('status') },
      ]),
    );
  response.statusCode = 404;
  response.end(JSON.stringify({ message: 'no such pet' }));
});

let gateway: RunningGateway;
beforeAll(async () => {
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  const { port } = backend.address() as AddressInfo;
  const config = writeConfig({
    pets: {
      openapi: PETSTORE,
      baseUrl: `http://127.0.0.1:${port}/v2`,
      auth: { api_key: { apiKeyEnv: 'PETSTORE_KEY' } },
      includeTags: ['pet'],
    },
  });
  process.env.PETSTORE_KEY = 'special-key';
  gateway = await startGateway(config);
}, scaled(60_000));
afterAll(async () => {
  await gateway.close();
  await new Promise((resolve) => backend.close(resolve));
});

const PET_TOOLS = [
  'pets_addPet',
  'pets_deletePet',
  'pets_findPetsByStatus',
  'pets_findPetsByTags',
  'pets_getPetById',
  'pets_updatePet',
  'pets_updatePetWithForm',
  'pets_uploadFile',
];

describe('rondo-gateway with an openapi entry', () => {
  it(
    'serves the operations to the v2 client pinned to 2026-07-28',
    async () => {
      const client = new Client(
        { name: 'openapi-modern', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(new StreamableHTTPClientTransport(gateway.url));
      expect(client.getProtocolEra()).toBe('modern');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(PET_TOOLS);
      const get = tools.find((tool) => tool.name === 'pets_getPetById')!;
      expect(get.annotations?.readOnlyHint).toBe(true);
      expect(get.inputSchema.required).toEqual(['petId']);
      const result = await client.callTool({ name: 'pets_getPetById', arguments: { petId: 7 } });
      expect(result.structuredContent).toEqual({ id: 7, name: 'Rex', photoUrls: [] });
      expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/v2/pet/7' });
      expect(seen.at(-1)!.headers.api_key).toBe('special-key');
      const missing = await client.callTool({ name: 'pets_getPetById', arguments: { petId: 8 } });
      expect(missing.isError).toBe(true);
      expect(JSON.stringify(missing.content)).toContain('HTTP 404');
      await client.close();
    },
    scaled(60_000),
  );

  it(
    'serves the operations to the v1 client at 2025-11-25',
    async () => {
      const client = new V1Client({ name: 'openapi-legacy', version: '1.0.0' });
      const transport = new V1HttpTransport(gateway.url);
      await client.connect(transport);
      expect(transport.protocolVersion).toBe('2025-11-25');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(PET_TOOLS);
      const result = await client.callTool({
        name: 'pets_findPetsByStatus',
        arguments: { status: ['sold'] },
      });
      expect(result.structuredContent).toEqual({
        result: [{ id: 1, name: 'Tom', photoUrls: [], status: 'sold' }],
      });
      expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/v2/pet/findByStatus?status=sold' });
      await client.close();
    },
    scaled(60_000),
  );
});
