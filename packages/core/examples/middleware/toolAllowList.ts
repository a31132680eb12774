import { ErrorCode, McpError } from '@rondo/protocol';
import { isListResult, type Middleware, type Principal } from '@rondo/core';

/**
 * Lets each principal use only the tools `allowed` names for it: other tools are left out of
 * `tools/list` and a call to one is refused with -32602, as an unknown tool would be.
 */
export function toolAllowList(
  allowed: (principal: Principal | undefined) => readonly string[],
): Middleware {
  return async (call, next) => {
    if (call.method === 'tools/call') {
      const name = call.params.name;
      if (typeof name !== 'string' || !allowed(call.principal).includes(name)) {
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${String(name)}`, { name });
      }
      return next();
    }
    const result = await next();
    if (call.method !== 'tools/list' || !isListResult(result)) return result;
    const names = allowed(call.principal);
    return {
      ...result,
      items: result.items.filter((tool) => names.includes((tool as { name: string }).name)),
    };
  };
}
