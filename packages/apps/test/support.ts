import { Client, inMemoryTransport } from '@rondo/client';
import { createEndpoint, type RondoServer } from '@rondo/core';
import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';

/** The revisions a test client pins, one per era. */
export const ERAS = { legacy: '2025-11-25', modern: '2026-07-28' } as const;

/** A connected in-memory client of `server` on `era`'s wire. */
export async function connected(server: RondoServer, era: keyof typeof ERAS): Promise<Client> {
  const endpoint = createEndpoint(server, { modern: modernEra(), legacy: legacyEra() });
  const client = new Client({ transport: inMemoryTransport(endpoint), era: ERAS[era] });
  await client.connect();
  return client;
}
