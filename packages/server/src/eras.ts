import { legacyEra, type LegacyEraOptions } from '@rondo/adapter-2025';
import { modernEra, type ModernEraOptions } from '@rondo/adapter-2026';
import {
  ConfigurationError,
  createEndpoint,
  type Endpoint,
  type EndpointOptions,
  type RondoServer,
} from '@rondo/core';

/**
 * The eras {@link serve} composes a server with: both by default. `false` leaves one out; an
 * options object is handed to `modernEra(...)` or `legacyEra(...)`.
 */
export interface ServeEras {
  /** The modern era (2026-07-28): default on, `false` leaves it out. */
  modern?: ModernEraOptions | false;
  /** The legacy era (2025-11-25, 2025-06-18): default on, `false` leaves it out. */
  legacy?: LegacyEraOptions | false;
}

/** What {@link serve} serves: a server (composed with {@link ServeEras}) or a composed endpoint. */
export type Servable = RondoServer | Endpoint;

/** True for an endpoint (it has `connect`), false for a server the facade still has to compose. */
export function isEndpoint(servable: Servable): servable is Endpoint {
  return 'connect' in servable && typeof servable.connect === 'function';
}

/**
 * The endpoint of a server with both eras: `createEndpoint(server, { modern: modernEra(),
 * legacy: legacyEra() })`, minus the eras `eras` leaves out, each with its options. What an app
 * hands an edge (`@rondo/server/fetch`, `/hono`, `/express`, `/fastify`, `/http`, `/ws`, `/stdio`)
 * when it serves the endpoint itself rather than through {@link serve}.
 */
export function composeEndpoint(server: RondoServer, eras: ServeEras = {}): Endpoint {
  const chosen: EndpointOptions = {};
  if (eras.modern !== false) chosen.modern = modernEra(eras.modern);
  if (eras.legacy !== false) chosen.legacy = legacyEra(eras.legacy);
  if (!chosen.modern && !chosen.legacy)
    throw new ConfigurationError('serve: `eras` turns both eras off; keep at least one');
  return createEndpoint(server, chosen);
}
