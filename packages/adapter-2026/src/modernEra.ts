import { MODERN_REVISIONS } from '@rondo/protocol';
import { ConfigurationError, type EndpointFacts, type EraAdapter } from '@rondo/core';
import { runtimeOfHost } from '@rondo/core/internal';
import type { ModernEraOptions } from './options.js';
import { ModernServerView } from './serverView.js';
import { ModernSession } from './session.js';

/**
 * The modern era (2026-07-28) as an {@link EraAdapter}: compose it with a server through
 * `createEndpoint(server, { modern: modernEra() })`. Each request carries its own `_meta`
 * (validated strictly), results carry `resultType` and the serverInfo `_meta`, client input is
 * obtained through multi round-trip requests, and changes reach clients through
 * `subscriptions/listen`.
 */
export function modernEra(options: ModernEraOptions = {}): EraAdapter {
  const idle = options.listenIdleTimeoutMs;
  if (idle !== undefined && (!Number.isInteger(idle) || idle < 0))
    throw new ConfigurationError(`listenIdleTimeoutMs must be a non-negative integer, got ${idle}`);
  // What the era derives from a server is built once per endpoint, not per connection: a stateless
  // HTTP endpoint opens a connection for every request.
  const views = new WeakMap<EndpointFacts, ModernServerView>();
  return {
    era: 'modern',
    revisions: MODERN_REVISIONS,
    open(host, _peer, endpoint) {
      let view = views.get(endpoint);
      if (view === undefined) {
        view = new ModernServerView(runtimeOfHost(host), options, endpoint);
        views.set(endpoint, view);
      }
      return new ModernSession(view);
    },
  };
}
