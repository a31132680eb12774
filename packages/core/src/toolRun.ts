import { isMcpError, type RoundResult, type ToolResult } from '@rondo/protocol';
import type { ToolEntry } from './catalog.js';
import type { HandlerContext } from './contracts/context.js';
import { admitToolArguments } from './limits.js';
import { checkToolOutput } from './outputValidation.js';
import { normaliseRound } from './rounds.js';

/**
 * Runs a tool the caller may see and call: its arguments bounded in depth and validated, the
 * provider's answer checked against the tool's `outputSchema`. Bad arguments, a handler's failure
 * (other than an `McpError`, which passes) and a result that breaks the schema are `isError`
 * results, which a model can read and act on.
 */
export async function runTool(
  entry: ToolEntry,
  name: string,
  args: unknown,
  ctx: HandlerContext,
  maxArgumentDepth: number,
): Promise<RoundResult<ToolResult>> {
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
