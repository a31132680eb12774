import {
  ErrorCode,
  McpError,
  type ModernCallToolRequestParams,
  type ModernGetPromptRequestParams,
  type ModernReadResourceRequestParams,
  type ResourceResult,
  type RoundResult,
} from '@rondo/protocol';
import {
  CALL_TOOL,
  GET_PROMPT,
  READ_RESOURCE,
  namedCall,
  seenBy,
  type RequestCall,
  type ResourceCall,
  type RoundOperation,
  type WireResult,
} from '@rondo/core/internal';
import { demandScopes } from '@rondo/core';
import { checkParamHeaders } from './headerRules.js';
import { driveRound, type RetryParams } from './rounds.js';
import { NOT_CACHEABLE, withCachePolicy, type ModernServerView } from './serverView.js';

/** The three methods that may answer `input_required`: tools/call, prompts/get and resources/read. */

/** `resources/read` on this wire: a resource nobody has is -32602 with `data.uri`. */
const readOrRefuse: RoundOperation<ResourceResult, ResourceCall> = {
  ...READ_RESOURCE,
  async invoke(runtime, call, identity): Promise<RoundResult<ResourceResult>> {
    const outcome = await READ_RESOURCE.invoke(runtime, call, identity);
    if (outcome !== undefined) return outcome;
    throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${identity.uri}`, {
      uri: identity.uri,
    });
  },
};

/**
 * `tools/call`: the `Mcp-Param-*` headers must mirror the arguments. An extension may answer the
 * call itself (the Tasks extension makes it a task), see `driveRound`.
 */
export function callTool(
  call: RequestCall,
  params: ModernCallToolRequestParams,
  view: ModernServerView,
): Promise<WireResult> {
  // A tool the caller may not see is answered as unknown, whatever its headers.
  const tool = seenBy(view.runtime.catalog.tool(params.name), call.principal);
  const headers = call.exchange.headers;
  if (headers !== undefined && tool !== undefined) {
    checkParamHeaders(headers, tool.definition, params.arguments);
  }
  // Checked before a task exists, so a step-up refusal is the call's answer, not a failed task.
  if (tool !== undefined) demandScopes(tool.scopes, call.principal, `tool "${params.name}"`);
  return driveRound(call, params as RetryParams, view, CALL_TOOL, namedCall(params));
}

/** `prompts/get`: prompt arguments are strings by name. */
export function getPrompt(
  call: RequestCall,
  params: ModernGetPromptRequestParams,
  view: ModernServerView,
): Promise<WireResult> {
  return driveRound(call, params as RetryParams, view, GET_PROMPT, namedCall(params));
}

/** `resources/read`: cacheable unless it took more than one round. */
export async function readResource(
  call: RequestCall,
  params: ModernReadResourceRequestParams,
  view: ModernServerView,
): Promise<WireResult> {
  const identity = { uri: params.uri };
  const result = await driveRound(call, params as RetryParams, view, readOrRefuse, identity);
  if (result.resultType === 'input_required') return result;
  const retried = params.requestState !== undefined || params.inputResponses !== undefined;
  return withCachePolicy(
    result,
    retried ? NOT_CACHEABLE : view.runtime.cachePolicyFor('resources/read', params.uri),
  );
}
