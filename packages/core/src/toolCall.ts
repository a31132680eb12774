import {
  ErrorCode,
  McpError,
  isMcpError,
  type RoundResult,
  type ToolResult,
} from '@rondo/protocol';
import { seenBy, type Catalog } from './catalog.js';
import type { HandlerContext } from './context.js';
import { admitToolArguments } from './limits.js';
import { checkToolOutput } from './outputValidation.js';
import { normaliseRound } from './rounds.js';

/**
 * One tool call against a catalog, with the rules every call follows whoever provides the tool:
 * an unknown (or hidden) tool and arguments nesting past `maxArgumentDepth` are -32602; bad
 * arguments, a handler's failure (other than an `McpError`, which stays a wire error) and a result
 * that breaks the tool's `outputSchema` are an `isError` result.
 */
export async function callCatalogTool(
  catalog: Catalog,
  maxArgumentDepth: number,
  name: string,
  args: unknown,
  ctx: HandlerContext,
): Promise<RoundResult<ToolResult>> {
  const entry = seenBy(catalog.tool(name), ctx.principal);
  if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`, { name });
  const given = admitToolArguments(name, args, maxArgumentDepth);
  if (!given.ok) return { kind: 'complete', result: { kind: 'error', text: given.message } };
  let checked = entry.validate(given.value);
  // Only a library that validates asynchronously costs an await.
  if (checked instanceof Promise) checked = await checked;
  if (!checked.ok) return { kind: 'complete', result: { kind: 'error', text: checked.message } };
  try {
    const outcome = await entry.provider.callTool!(name, checked.value as never, ctx);
    return checkToolOutput(entry.definition, normaliseRound(outcome));
  } catch (failure) {
    if (isMcpError(failure)) throw failure;
    const reason = failure instanceof Error ? failure.message : String(failure);
    return {
      kind: 'complete',
      result: { kind: 'error', text: `Tool "${name}" failed: ${reason}` },
    };
  }
}
