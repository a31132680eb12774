import { ClientRequestError, toWireError, type Arguments, type HandlerContext } from '@rondo/core';
import {
  ErrorCode,
  McpError,
  isMcpError,
  promptResultToWire,
  resourceResultToWire,
} from '@rondo/protocol';
import type { LegacyCall } from './call.js';
import { MissingClientCapabilityError, RoundLimitError } from './errors.js';
import { handlerContext } from './handlerContext.js';
import { driveRounds } from './legacyShim.js';
import { optionalObject, optionalStringRecord, requiredString } from './params.js';
import type { SessionState } from './sessionState.js';
import { toolErrorResult, toolResultForWire } from './toolResults.js';

/**
 * The methods whose handlers may be round hooks: `tools/call`, `prompts/get`, `resources/read`. A
 * hook asking for input is driven by the legacy shim; the client only ever sees a complete result.
 */

/** `tools/call`. Unknown tool: -32602; failures of the tool or of its rounds: an `isError` result. */
export async function callTool(
  state: SessionState,
  call: LegacyCall,
): Promise<Record<string, unknown>> {
  const name = requiredString(call.params, 'name', 'tools/call');
  const args = optionalObject(call.params, 'arguments', 'tools/call') as Arguments;
  const ctx = handlerContext(state, call);
  const first = await state.server.callTool(name, args, ctx);
  const definition = state.server.catalog.tool(name)?.definition;
  try {
    const result = await driveRounds(state, call, first, ctx, (next) =>
      state.server.callTool(name, args, next),
    );
    return toolResultForWire(result, definition);
  } catch (failure) {
    if (isMcpError(failure)) throw failure;
    return toolErrorResult(
      `Tool "${name}" failed: ${failure instanceof Error ? failure.message : String(failure)}`,
    );
  }
}

/** `prompts/get`. Unknown prompt or a missing required argument: -32602. */
export async function getPrompt(
  state: SessionState,
  call: LegacyCall,
): Promise<Record<string, unknown>> {
  const name = requiredString(call.params, 'name', 'prompts/get');
  const args = optionalStringRecord(call.params, 'arguments', 'prompts/get');
  const ctx = handlerContext(state, call);
  try {
    const first = await state.server.getPrompt(name, args, ctx);
    const result = await driveRounds(state, call, first, ctx, (next) =>
      state.server.getPrompt(name, args, next),
    );
    return promptResultToWire(result);
  } catch (failure) {
    throw roundFailure(failure);
  }
}

/** `resources/read`. Not found: -32002 with `data.uri`. */
export async function readResource(
  state: SessionState,
  call: LegacyCall,
): Promise<Record<string, unknown>> {
  const uri = requiredString(call.params, 'uri', 'resources/read');
  const read = async (ctx: HandlerContext) => {
    const outcome = await state.server.readResource(uri, ctx);
    if (outcome === undefined)
      throw new McpError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
    return outcome;
  };
  const ctx = handlerContext(state, call);
  try {
    const result = await driveRounds(state, call, await read(ctx), ctx, read);
    return resourceResultToWire(result);
  } catch (failure) {
    throw roundFailure(failure);
  }
}

/**
 * A failure of a prompt or resource round as a wire error: a capability the client lacks is
 * -32600 (the request cannot be served to this client), anything else keeps its code or is -32603.
 */
function roundFailure(failure: unknown): McpError {
  if (isMcpError(failure)) return failure;
  if (failure instanceof MissingClientCapabilityError)
    return new McpError(ErrorCode.InvalidRequest, `Invalid Request: ${failure.message}`);
  if (failure instanceof ClientRequestError || failure instanceof RoundLimitError) {
    return new McpError(ErrorCode.InternalError, failure.message);
  }
  const wire = toWireError(failure);
  return new McpError(wire.code, wire.message, wire.data);
}
