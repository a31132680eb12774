import { ErrorCode, McpError } from '@rondo/protocol';
import { demandScopes } from './callScopes.js';
import type { Catalog } from './catalog.js';
import type { CompletionRequest, CompletionResult, Principal } from './contracts/definitions.js';
import type { McpCall } from './contracts/middleware.js';
import type { Provider } from './contracts/provider.js';
import { compileTemplate } from './uriTemplate.js';
import { isVisible } from './visibility.js';

/**
 * Throws -32602 unless the request names a prompt or resource template the caller may see, and
 * one of its arguments (a prompt argument, a template variable): Logtalk's `mcp_server` answers
 * so, and an empty list would tell the client the argument exists but has no values. A caller
 * without the prompt's or template's scopes is refused as a call of it would be
 * ({@link demandScopes}).
 */
export function checkCompletionTarget(
  catalog: Catalog,
  request: CompletionRequest,
  principal: Principal | undefined,
): void {
  const { ref, argument } = request;
  if (ref.type === 'ref/prompt') {
    const prompt = catalog.prompt(ref.name);
    if (!prompt || !isVisible(prompt.visible, principal))
      throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${ref.name}`, {
        name: ref.name,
      });
    // A completion's values are often the very names the prompt guards: its scopes, too.
    demandScopes(prompt.scopes, principal, `prompt "${ref.name}"`);
    const names = (prompt.definition.arguments ?? []).map((a) => a.name);
    if (!names.includes(argument.name))
      throw unknownArgument(argument.name, `prompt "${ref.name}"`);
    return;
  }
  const template = catalog.templates.find((t) => t.definition.uriTemplate === ref.uri);
  if (!template || !isVisible(template.visible, principal))
    throw new McpError(ErrorCode.InvalidParams, `Unknown resource template: ${ref.uri}`, {
      uri: ref.uri,
    });
  demandScopes(template.scopes, principal, `resource template "${ref.uri}"`);
  const variables = (template.compiled ?? compileTemplate(ref.uri)).variables;
  if (!variables.includes(argument.name))
    throw unknownArgument(argument.name, `resource template "${ref.uri}"`);
}

function unknownArgument(name: string, of: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Unknown argument "${name}" for ${of}`, {
    argument: name,
  });
}

/** The most values one completion answers; a longer list is cut with `hasMore: true`. */
const MAX_COMPLETION_VALUES = 100;

/** The first provider's completion, cut to 100 values; an empty list when none completes. */
export async function completeFromProviders(
  providers: readonly Provider[],
  request: CompletionRequest,
  call?: McpCall,
): Promise<CompletionResult> {
  for (const provider of providers) {
    const answer = await provider.complete?.(request, call);
    if (!answer) continue;
    if (answer.values.length <= MAX_COMPLETION_VALUES) return answer;
    return {
      values: answer.values.slice(0, MAX_COMPLETION_VALUES),
      total: answer.total ?? answer.values.length,
      hasMore: true,
    };
  }
  return { values: [] };
}
