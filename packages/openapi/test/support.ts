import {
  createServer as createHttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';

// The local HTTP backend the OpenAPI tests call, and the documents of @readme/oas-examples.

const require = createRequire(import.meta.url);
const EXAMPLES = dirname(require.resolve('@readme/oas-examples/package.json'));

/** The path of one example document (`3.0/json/petstore.json`). */
export function example(name: string): string {
  return join(EXAMPLES, name);
}

/** One request the backend received. */
export interface Received {
  readonly method: string;
  readonly url: URL;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** What the backend answers: a status and a JSON value, or a handler of its own. */
export type Answer =
  | { status: number; json?: unknown; text?: string }
  | ((request: Received, response: ServerResponse) => void);

/** A local HTTP backend that records each request and answers with `next` (default 200 `{}`). */
export async function backend() {
  const received: Received[] = [];
  let next: Answer = { status: 200, json: {} };
  const server = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const seen: Received = {
        method: request.method ?? '',
        url: new URL(request.url ?? '/', 'http://backend'),
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(seen);
      if (typeof next === 'function') return next(seen, response);
      const payload = next.json !== undefined ? JSON.stringify(next.json) : (next.text ?? '');
      response.writeHead(next.status, {
        'content-type': next.json !== undefined ? 'application/json' : 'text/plain',
      });
      response.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer(answer: Answer) {
      next = answer;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Schema = Record<string, unknown>;

/**
 * A small valid instance of a JSON Schema (required members only, the first of an enum or a
 * choice, the least of a range), to fill arguments an example does not give and backend answers.
 */
export function instanceOf(schema: unknown, depth = 0): unknown {
  if (schema === null || typeof schema !== 'object' || depth > 8) return null;
  const s = schema as Schema;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if ('default' in s) return s.default;
  if (Array.isArray(s.allOf)) {
    return Object.assign({}, ...s.allOf.map((part) => instanceOf(part, depth + 1) as object));
  }
  const choice = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
  if (Array.isArray(choice)) return instanceOf(choice[0], depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type ?? (s.properties ? 'object' : undefined)) {
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      const required = (s.required ?? []) as string[];
      return Object.fromEntries(
        required.map((name) => [name, instanceOf(properties[name] ?? {}, depth + 1)]),
      );
    }
    case 'array':
      return Array.from({ length: (s.minItems as number | undefined) ?? 0 }, () =>
        instanceOf(s.items, depth + 1),
      );
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return true;
    case 'string':
      return stringOf(s);
    default:
      return {};
  }
}

function stringOf(s: Schema): string {
  switch (s.format) {
    case 'date-time':
      return '2026-12-06T10:00:00Z';
    case 'date':
      return '2026-12-06';
    case 'email':
      return 'ann@example.org';
    case 'uri':
    case 'url':
      return 'https://example.org/';
    case 'uuid':
      return '1f0c1d5e-2b7a-4c1e-9f4a-0a1b2c3d4e5f';
    default:
      return 'x'.repeat(Math.max(1, (s.minLength as number | undefined) ?? 1));
  }
}
