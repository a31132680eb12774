import type { Catalog } from './catalog.js';
import type { Provider } from './provider.js';
import type { ServerCapabilitySet } from './serverTypes.js';

/** What a server's providers offer, for capability negotiation: its catalog and their flags. */
export function capabilitiesOf(
  catalog: Catalog,
  providers: readonly Provider[],
): ServerCapabilitySet {
  const flags = providers.map((p) => p.capabilities?.() ?? {});
  return {
    tools: catalog.tools.length > 0 || providers.some((p) => p.tools !== undefined),
    prompts: catalog.prompts.length > 0,
    resources: catalog.resources.length > 0 || catalog.templates.length > 0,
    subscribe: flags.some((f) => f.subscribe === true),
    listChanged: flags.some((f) => f.listChanged === true),
    completions: providers.some(
      (p, i) => p.complete !== undefined && flags[i]!.completions !== false,
    ),
  };
}
