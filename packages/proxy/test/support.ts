import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { Client, inMemoryTransport, type ClientHandlers } from '@rondo/client';
import { createEndpoint, createServer, type Endpoint, type RondoServer } from '@rondo/core';
import type { EraChoice } from '@rondo/client';
import type { JsonObject } from '@rondo/protocol';
import { proxy, type ProxyOptions, type UpstreamSpec } from '../src/index.js';

/** The form the test upstreams ask their client to fill: one required name. */
export const NAME_FORM: JsonObject = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
};

/** A gateway server over one upstream, served in memory to both eras. */
export function gateway(spec: UpstreamSpec, options: ProxyOptions = {}) {
  const provider = proxy(spec, options);
  const server = createServer({ name: 'gateway', version: '1.0.0' }).provider(provider);
  const endpoint = createEndpoint(server, { modern: modernEra(), legacy: legacyEra() });
  return { provider, server, endpoint };
}

/** An in-memory upstream spec for an endpoint. */
export function memoryUpstream(endpoint: Endpoint, label = 'memory'): UpstreamSpec {
  return { transport: () => inMemoryTransport(endpoint), label };
}

/** Serves a Rondo server in one era only (or both). */
export function endpointOf(server: RondoServer, eras: 'legacy' | 'modern' | 'both'): Endpoint {
  if (eras === 'legacy') return createEndpoint(server, { legacy: legacyEra() });
  if (eras === 'modern') return createEndpoint(server, { modern: modernEra() });
  return createEndpoint(server, { modern: modernEra(), legacy: legacyEra() });
}

/** A connected client of `endpoint` in `era`. */
export async function clientOf(
  endpoint: Endpoint,
  era: EraChoice,
  handlers: ClientHandlers = {},
): Promise<Client> {
  const client = new Client({ transport: inMemoryTransport(endpoint), era, handlers });
  await client.connect();
  return client;
}
