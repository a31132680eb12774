import {
  CALL_TOOL,
  GET_PROMPT,
  READ_RESOURCE,
  namedCall,
  type RequestCall,
  type RoundOperation,
  type WireResult,
} from '@rondo/core/internal';
import {
  ErrorCode,
  McpError,
  isMcpError,
  type Json,
  type LegacyCallToolRequestParams,
  type LegacyGetPromptRequestParams,
  type LegacyResourceRequestParams,
} from '@rondo/protocol';
import { driveRounds } from './legacyShim.js';
import type { SessionState } from './sessionState.js';
import { toolErrorResult, toolResultForWire } from './toolResults.js';

/**
 * The methods whose handlers may be round hooks: `tools/call`, `prompts/get`, `resources/read`. A
 * hook asking for input is driven by the legacy shim; the client only ever sees a complete result.
 * Failures of prompts and resources become wire errors in the pipeline.
 */

/** Runs a round method to completion; `undefined` when its target does not exist. */
async function runToCompletion<R, I extends Json>(
  state: SessionState,
  call: RequestCall,
  operation: RoundOperation<R, I>,
  identity: I,
): Promise<R | undefined> {
  const first = await operation.invoke(state.runtime, call, identity);
  const outcome = await driveRounds(state, call, operation, identity, first);
  return outcome?.kind === 'complete' ? outcome.result : undefined;
}

/** `tools/call`. Unknown tool: -32602; failures of the tool or of its rounds: an `isError` result. */
export async function callTool(
  call: RequestCall,
  params: LegacyCallToolRequestParams,
  state: SessionState,
): Promise<WireResult> {
  const identity = namedCall(params);
  const first = await CALL_TOOL.invoke(state.runtime, call, identity);
  try {
    const outcome = await driveRounds(state, call, CALL_TOOL, identity, first);
    if (outcome?.kind !== 'complete') throw new Error('the tool gave no result');
    const definition = state.runtime.catalog.tool(params.name)?.definition;
    return toolResultForWire(outcome.result, definition);
  } catch (failure) {
    if (isMcpError(failure)) throw failure;
    const reason = failure instanceof Error ? failure.message : String(failure);
    return toolErrorResult(`Tool "${params.name}" failed: ${reason}`);
  }
}

/** `prompts/get`. Unknown prompt or a missing required argument: -32602. */
export async function getPrompt(
  call: RequestCall,
  params: LegacyGetPromptRequestParams,
  state: SessionState,
): Promise<WireResult> {
  const result = await runToCompletion(state, call, GET_PROMPT, namedCall(params));
  if (result === undefined)
    throw new McpError(ErrorCode.InternalError, 'The prompt gave no result');
  return GET_PROMPT.toWire(result);
}

/** `resources/read`. Not found: -32002 with `data.uri`. */
export async function readResource(
  call: RequestCall,
  params: LegacyResourceRequestParams,
  state: SessionState,
): Promise<WireResult> {
  const result = await runToCompletion(state, call, READ_RESOURCE, { uri: params.uri });
  if (result === undefined) {
    throw new McpError(ErrorCode.ResourceNotFound, `Resource not found: ${params.uri}`, {
      uri: params.uri,
    });
  }
  return READ_RESOURCE.toWire(result);
}
