import type { ToolDefinition } from '@rondo/core';
import { error, isPlainObject, type ToolResult } from '@rondo/protocol';
import { toolResultToWire } from '@rondo/protocol/internal';

/** An error tool result (`isError`) with one text block. */
export function toolErrorResult(message: string): Record<string, unknown> {
  return toolResultToWire(error(message));
}

/**
 * A tool result on the legacy wire, where `structuredContent` must be a JSON object: a result that
 * would break that becomes an error result, so the client never receives invalid wire. (The
 * `outputSchema` promise is kept by the core for every era.)
 */
export function toolResultForWire(
  result: ToolResult,
  definition: ToolDefinition | undefined,
): Record<string, unknown> {
  const wire = toolResultToWire(result);
  if ('structuredContent' in wire && !isPlainObject(wire.structuredContent)) {
    return toolErrorResult(
      `Tool "${definition?.name ?? 'tool'}" returned structured content that is not a JSON object, which this protocol revision cannot carry`,
    );
  }
  return wire;
}
