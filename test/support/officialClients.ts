import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttp,
} from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { createEndpoint, type RondoServer } from '@rondo/core';
import { serveHttp, type HttpServerHandle } from '@rondo/transport-http';

/**
 * A Rondo server served to both eras over Streamable HTTP on 127.0.0.1, and the official clients
 * of each era connected to it: the SDK v1 client (legacy, 2025-11-25) and the SDK v2 client pinned
 * to 2026-07-28.
 */

/** Serves `server` to both eras on a free port. */
export async function serveBothEras(server: RondoServer): Promise<HttpServerHandle> {
  return serveHttp(createEndpoint(server, { modern: modernEra(), legacy: legacyEra() }), {
    port: 0,
  });
}

/** The two official clients, by era, behind one interface the tests use. */
export type OfficialClient = LegacyClient | ModernClient;

/** The eras the official clients speak, as test labels. */
export const OFFICIAL_ERAS = ['legacy (SDK v1)', 'modern (SDK v2, 2026-07-28)'] as const;
export type OfficialEra = (typeof OFFICIAL_ERAS)[number];

/** Connects the official client of `era` to `url`, declaring form elicitation. */
export async function connectOfficial(era: OfficialEra, url: string): Promise<OfficialClient> {
  const info = { name: `official-${era}`, version: '1.0.0' };
  if (era === 'legacy (SDK v1)') {
    const client = new LegacyClient(info, { capabilities: { elicitation: {} } });
    await client.connect(new LegacyHttp(new URL(url)));
    return client;
  }
  const client = new ModernClient(info, {
    capabilities: { elicitation: { form: {} } },
    versionNegotiation: { mode: { pin: '2026-07-28' } },
  });
  await client.connect(new ModernHttp(new URL(url)));
  return client;
}
