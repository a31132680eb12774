import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { Client, inMemoryTransport } from '@rondo/client';
import { createEndpoint, createServer } from '@rondo/core';
import { compileArgumentValidator } from '@rondo/core/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import {
  loadDocument,
  openApiProvider,
  type Operation,
  type OpenApiProvider,
} from '../src/index.js';
import { backend, example, instanceOf } from './support.js';

// Issue 45, done when 3: the OpenAPI examples of @readme/oas-examples served against a local HTTP
// backend: every operation is a tool whose input schema takes the documented examples, each call
// reaches the backend with the right method, path, query, headers and body, a 404 is a tool
// error, and a 50 MB answer is cut at the size cap.

const DOCUMENTS = [
  '3.0/json/petstore.json',
  '3.1/json/petstore.json',
  '3.0/json/petstore-expanded.json',
  '3.1/json/train-travel.json',
  '3.0/json/request-examples.json',
];
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

let http: Awaited<ReturnType<typeof backend>>;
beforeAll(async () => {
  http = await backend();
});
afterAll(() => http.close());

type Raw = Record<string, unknown>;

/** The documented examples of an operation, as the tool's arguments (undefined: none). */
function documentedArguments(raw: Raw, operation: Operation): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  const parameters = (raw.parameters ?? []) as Raw[];
  for (const parameter of operation.parameters) {
    const found = parameters.find((p) => p.name === parameter.name && p.in === parameter.in);
    const value = exampleOf(found);
    if (value !== undefined) args[parameter.argument] = value;
  }
  const content = ((raw.requestBody as Raw | undefined)?.content ?? {}) as Record<string, Raw>;
  const body = operation.body && exampleOf(content[operation.body.mediaType]);
  if (body !== undefined) args.body = jsonText(body, operation.tool.inputSchema);
  return Object.keys(args).length > 0 ? args : undefined;
}

function exampleOf(holder: Raw | undefined): unknown {
  if (holder === undefined) return undefined;
  if (holder.example !== undefined) return holder.example;
  const examples = Object.values((holder.examples ?? {}) as Record<string, Raw>);
  return examples.find((e) => e.value !== undefined)?.value ?? schemaExample(holder.schema);
}

/** The examples a schema documents on itself or on its members (a Pet's `name: doggie`). */
function schemaExample(schema: unknown, depth = 0): unknown {
  if (schema === null || typeof schema !== 'object' || depth > 6) return undefined;
  const s = schema as Raw;
  if (s.example !== undefined) return s.example;
  if (s.properties === undefined) return undefined;
  const members = Object.entries(s.properties as Record<string, unknown>)
    .map(([key, member]) => [key, schemaExample(member, depth + 1)] as const)
    .filter(([, value]) => value !== undefined);
  if (members.length === 0) return undefined;
  return { ...(instanceOf(s) as object), ...Object.fromEntries(members) };
}

/** A JSON body documented as its JSON text (a string example of a non-string schema), parsed. */
function jsonText(body: unknown, input: Raw): unknown {
  const schema = (input.properties as Record<string, Raw>).body!;
  if (typeof body !== 'string' || schema.type === 'string') return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

/** Arguments for a call: the documented examples, the rest of what is required made up. */
function callArguments(raw: Raw, operation: Operation): Record<string, unknown> {
  const made = instanceOf(operation.tool.inputSchema) as Record<string, unknown>;
  return { ...made, ...documentedArguments(raw, operation) };
}

function rawOperation(document: Raw, operation: Operation): Raw {
  const paths = document.paths as Record<string, Record<string, Raw>>;
  const item = paths[operation.path]!;
  const own = item[operation.method]!;
  return {
    ...own,
    parameters: [...((item.parameters ?? []) as Raw[]), ...((own.parameters ?? []) as Raw[])],
  };
}

describe.each(DOCUMENTS)('OpenAPI example %s', (name) => {
  let provider: OpenApiProvider;
  let document: Raw;
  let client: Client;

  beforeAll(async () => {
    document = (await loadDocument(example(name))).document;
    provider = await openApiProvider({ source: example(name), baseUrl: `${http.url}/api` });
    const server = createServer({ name: 'openapi', version: '1.0.0' }).provider(provider);
    client = new Client({
      transport: inMemoryTransport(
        createEndpoint(server, { modern: modernEra(), legacy: legacyEra() }),
      ),
      era: '2026-07-28',
    });
    await client.connect();
    return async () => {
      await client.close();
      await server.close();
    };
  });

  it('makes every operation a tool, read-only for GET and HEAD', async () => {
    const paths = document.paths as Record<string, Raw>;
    const count = Object.values(paths).reduce(
      (n, item) => n + Object.keys(item).filter((k) => METHODS.includes(k)).length,
      0,
    );
    const tools = await client.listAllTools();
    expect(tools).toHaveLength(count);
    for (const operation of provider.operations) {
      const listed = tools.find((tool) => tool.name === operation.tool.name)!;
      expect(listed.inputSchema.type).toBe('object');
      expect(listed.annotations?.readOnlyHint).toBe(
        operation.method === 'get' || operation.method === 'head',
      );
    }
  });

  it("validates the documented examples against each tool's input schema", () => {
    let checked = 0;
    for (const operation of provider.operations) {
      const documented = documentedArguments(rawOperation(document, operation), operation);
      if (documented === undefined) continue;
      const args = { ...(instanceOf(operation.tool.inputSchema) as object), ...documented };
      const validate = compileArgumentValidator(operation.tool.inputSchema, operation.tool.name);
      expect(
        validate(structuredClone(args)),
        `${operation.tool.name}: ${JSON.stringify(args)}`,
      ).toMatchObject({ ok: true });
      checked++;
    }
    console.log(`${name}: ${checked} operations with documented examples validated`);
  });

  it(
    'sends each call to the backend with the right method, path, query, headers and body',
    async () => {
      for (const operation of provider.operations) {
        const args = callArguments(rawOperation(document, operation), operation);
        const output = operation.tool.outputSchema;
        const answer = output === undefined ? {} : instanceOf(output);
        http.answer({
          status: 200,
          json: operation.wrapsResult ? (answer as { result: unknown }).result : answer,
        });
        const before = http.received.length;
        const result = await client.callTool(operation.tool.name, args);
        expect(
          result.isError,
          `${operation.tool.name}: ${JSON.stringify(result.content)}`,
        ).toBeFalsy();
        expect(http.received.length).toBe(before + 1);
        const seen = http.received.at(-1)!;
        expect(seen.method).toBe(operation.method.toUpperCase());
        let path = `/api${operation.path}`;
        for (const p of operation.parameters) {
          const value = args[p.argument];
          if (p.in === 'path')
            path = path.replaceAll(
              `{${p.name}}`,
              encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value)),
            );
          if (p.in === 'query' && value !== undefined) {
            const values = (Array.isArray(value) ? value : [value]).map((v) =>
              typeof v === 'string' ? v : JSON.stringify(v),
            );
            expect(seen.url.searchParams.getAll(p.name)).toEqual(values);
          }
          if (p.in === 'header' && value !== undefined)
            expect(seen.headers[p.name.toLowerCase()]).toBe(
              typeof value === 'string' ? value : JSON.stringify(value),
            );
        }
        expect(seen.url.pathname).toBe(path);
        if (operation.body && args.body !== undefined && /json/.test(operation.body.mediaType)) {
          expect(seen.headers['content-type']).toBe(operation.body.mediaType);
          // The body as the schema's defaults complete it (validation fills them in).
          const validate = compileArgumentValidator(
            operation.tool.inputSchema,
            operation.tool.name,
          );
          const filled = validate(structuredClone(args)) as unknown as { value: { body: unknown } };
          expect(JSON.parse(seen.body)).toEqual(filled.value.body);
        }
        if (output !== undefined) expect(result.structuredContent).toMatchObject(answer as object);
      }
    },
    scaled(60_000),
  );
});

describe('OpenAPI answers', () => {
  let provider: OpenApiProvider;
  let client: Client;
  beforeAll(async () => {
    provider = await openApiProvider({
      source: example('3.0/json/petstore.json'),
      baseUrl: http.url,
    });
    const server = createServer({ name: 'openapi', version: '1.0.0' }).provider(provider);
    client = new Client({
      transport: inMemoryTransport(createEndpoint(server, { legacy: legacyEra() })),
      era: '2025-11-25',
    });
    await client.connect();
    return async () => {
      await client.close();
      await server.close();
    };
  });

  it('turns a 404 into a tool error with the status and the start of the body', async () => {
    http.answer({ status: 404, text: `no pet 42 ${'.'.repeat(5000)}` });
    const result = await client.callTool('getPetById', { petId: 42 });
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toMatch(/^HTTP 404 Not Found: no pet 42 \.+…$/);
    expect(text.length).toBeLessThan(2100);
  });

  it(
    'cuts a 50 MB answer at the cap and stops reading it',
    async () => {
      let written = 0;
      let finished = false;
      http.answer((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = () => {
          while (written < 50 * 1024 * 1024) {
            written += chunk.length;
            if (!response.write(chunk)) return void response.once('drain', pump);
          }
          finished = true;
          response.end();
        };
        response.on('close', () => undefined);
        pump();
      });
      const result = await client.callTool('getInventory', {});
      expect(result.isError).toBe(true);
      expect((result.content[0] as { text: string }).text).toContain(
        `larger than the cap of ${10 * 1024 * 1024} bytes`,
      );
      expect(finished).toBe(false);
      expect(written).toBeLessThan(50 * 1024 * 1024);
    },
    scaled(60_000),
  );
});
