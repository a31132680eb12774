import {
  Client as ModernClient,
  type Transport as ModernTransport,
} from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport as LegacyTransport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { createServer, text, type RondoServer } from '@rondo/server';

/** The server every facade test serves: one tool, `greet`. */
export function greeterServer(): RondoServer {
  return createServer({
    name: 'greeter',
    version: '1.0.0',
    requestState: { key: 'facade-test-key-0123456789abcdef01234567' },
    log: () => undefined,
  }).tool(
    'greet',
    {
      description: 'Says hello.',
      input: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
    ({ name }) => text(`Hello, ${String(name)}!`),
  );
}

/** An official v2 client pinned to 2026-07-28, connected over `transport`. */
export async function connectModern(transport: ModernTransport): Promise<ModernClient> {
  const client = new ModernClient(
    { name: 'facade-modern', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport);
  return client;
}

/** An official v2 client in its default legacy mode (`initialize`), connected over `transport`. */
export async function connectLegacyV2(transport: ModernTransport): Promise<ModernClient> {
  const client = new ModernClient({ name: 'facade-legacy-v2', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** An official v1 SDK client (2025-11-25, `initialize`), connected over `transport`. */
export async function connectLegacy(transport: LegacyTransport): Promise<LegacyClient> {
  const client = new LegacyClient({ name: 'facade-legacy', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** What either official client offers for calling a tool. */
interface ToolCaller {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
}

/** What `greet` answered to `client`, as text. */
export async function greeting(client: ToolCaller, name: string): Promise<string> {
  const result = (await client.callTool({ name: 'greet', arguments: { name } })) as {
    content: { type: string; text?: string }[];
  };
  return result.content[0]?.text ?? '';
}
