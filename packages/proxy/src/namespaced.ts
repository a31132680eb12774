import type {
  Arguments,
  CompletionRequest,
  HandlerContext,
  PromptDefinition,
  Provider,
  ToolDefinition,
} from '@rondo/core';
import { NameMap, type NameRules } from './names.js';

/**
 * Any provider with its tools and prompts named by {@link NameRules} (a namespace, include,
 * exclude, renames), the way a proxy names an upstream's: a gateway hosts a Prolog provider
 * in-process beside proxied servers under one naming rule. Resources keep their URIs.
 */
export function namespaced(inner: Provider, rules: NameRules): Provider {
  const tools = new NameMap(rules);
  const prompts = new NameMap(rules);
  const wrapped: Provider = {
    name: inner.name,
    ...(inner.capabilities ? { capabilities: () => inner.capabilities!() } : {}),
    ...(inner.resources ? { resources: () => inner.resources!() } : {}),
    ...(inner.resourceTemplates ? { resourceTemplates: () => inner.resourceTemplates!() } : {}),
    ...(inner.readResource ? { readResource: (uri, ctx) => inner.readResource!(uri, ctx) } : {}),
    ...(inner.cachePolicy ? { cachePolicy: (method, key) => inner.cachePolicy!(method, key) } : {}),
    ...(inner.onChange ? { onChange: (listener) => inner.onChange!(listener) } : {}),
    ...(inner.close ? { close: () => inner.close!() } : {}),
  };
  if (inner.tools && inner.callTool) {
    wrapped.tools = async (): Promise<ToolDefinition[]> => tools.learn(await inner.tools!());
    wrapped.callTool = (name: string, args: Arguments, ctx: HandlerContext) =>
      inner.callTool!(tools.upstream(name) ?? name, args, ctx);
    if (inner.taskSupport) {
      wrapped.taskSupport = (name) => inner.taskSupport!(tools.upstream(name) ?? name);
    }
  }
  if (inner.prompts && inner.getPrompt) {
    wrapped.prompts = async (): Promise<PromptDefinition[]> =>
      prompts.learn(await inner.prompts!());
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
