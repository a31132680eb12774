import type {
  Arguments,
  CompletionRequest,
  HandlerContext,
  PromptDefinition,
  Provider,
  ProviderChange,
  ToolDefinition,
} from '@rondo/core';
import type { CatalogClaims, ClaimKind } from './catalogClaims.js';
import { NameMap, type NameRules } from './names.js';

/** Where a namespaced provider stands among a gateway's entries. */
export interface EntryClaims {
  /** The entry's key (its name in warnings). */
  readonly name: string;
  /** The gateway's table of who holds each name and URI. */
  readonly claims: CatalogClaims;
}

/**
 * Any provider with its tools and prompts named by {@link NameRules} (a namespace, include,
 * exclude, renames), the way a proxy names an upstream's: a gateway hosts a Prolog provider
 * in-process beside proxied servers under one naming rule. Resources keep their URIs. With
 * `entry`, an item another entry of the gateway holds is left out (see `CatalogClaims`).
 */
export function namespaced(inner: Provider, rules: NameRules, entry?: EntryClaims): Provider {
  const tools = new NameMap(rules);
  const prompts = new NameMap(rules);
  const claimed = <T>(kind: ClaimKind, items: T[], nameOf: (item: T) => string): T[] =>
    entry ? entry.claims.keep(entry.name, kind, items, nameOf) : items;
  const relisted = new Set<(change: ProviderChange) => void>();
  entry?.claims.enrol(entry.name, (list) => {
    for (const listener of relisted) listener({ kind: list });
  });
  const wrapped: Provider = {
    name: inner.name,
    ...(inner.capabilities ? { capabilities: () => inner.capabilities!() } : {}),
    ...(inner.resources
      ? { resources: async () => claimed('resource', await inner.resources!(), (r) => r.uri) }
      : {}),
    ...(inner.resourceTemplates
      ? {
          resourceTemplates: async () =>
            claimed('template', await inner.resourceTemplates!(), (t) => t.uriTemplate),
        }
      : {}),
    ...(inner.readResource ? { readResource: (uri, ctx) => inner.readResource!(uri, ctx) } : {}),
    ...(inner.cachePolicy ? { cachePolicy: (method, key) => inner.cachePolicy!(method, key) } : {}),
    onChange: (listener) => {
      relisted.add(listener);
      const stop = inner.onChange?.(listener);
      return () => {
        relisted.delete(listener);
        stop?.();
      };
    },
    ...(inner.close ? { close: () => inner.close!() } : {}),
  };
  if (inner.tools && inner.callTool) {
    wrapped.tools = async (): Promise<ToolDefinition[]> =>
      claimed('tool', tools.learn(await inner.tools!()), (tool) => tool.name);
    wrapped.callTool = (name: string, args: Arguments, ctx: HandlerContext) =>
      inner.callTool!(tools.upstream(name) ?? name, args, ctx);
    if (inner.taskSupport) {
      wrapped.taskSupport = (name) => inner.taskSupport!(tools.upstream(name) ?? name);
    }
  }
  if (inner.prompts && inner.getPrompt) {
    wrapped.prompts = async (): Promise<PromptDefinition[]> =>
      claimed('prompt', prompts.learn(await inner.prompts!()), (prompt) => prompt.name);
    wrapped.getPrompt = (name, args, ctx) =>
      inner.getPrompt!(prompts.upstream(name) ?? name, args, ctx);
  }
  if (inner.complete) {
    wrapped.complete = (request: CompletionRequest) => {
      if (request.ref.type !== 'ref/prompt') return inner.complete!(request);
      const name = prompts.upstream(request.ref.name);
      if (name === undefined) return Promise.resolve(undefined);
      return inner.complete!({ ...request, ref: { type: 'ref/prompt', name } });
    };
  }
  return wrapped;
}
