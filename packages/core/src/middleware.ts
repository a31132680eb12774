import { ErrorCode, McpError, isMcpError } from '@rondo/protocol';
import type { McpCall, McpResult, Middleware } from './contracts/middleware.js';
import { InsufficientScopeError } from './callScopes.js';
import { RateLimitedError } from './rateLimited.js';

/**
 * Runs `step` inside the middleware chain. What the step throws passes through as it is; what a
 * middleware itself throws reaches the client as that `McpError` (or the core's policy refusals,
 * `RateLimitedError` and `InsufficientScopeError`, as theirs), or as -32603 naming the failure,
 * never as a crash or an error another layer would guess at.
 */
export async function runMiddleware<T>(
  chain: readonly Middleware[],
  call: McpCall,
  step: () => Promise<T>,
): Promise<T> {
  let stepFailure: { error: unknown } | undefined;
  const guarded = async (): Promise<McpResult> => {
    try {
      return (await step()) as McpResult;
    } catch (error) {
      stepFailure = { error };
      throw error;
    }
  };
  const dispatch = (index: number): Promise<McpResult> => {
    const middleware = chain[index];
    if (middleware === undefined) return guarded();
    let called = false;
    return middleware(call, () => {
      if (called) return Promise.reject(new Error('next() was called twice by one middleware'));
      called = true;
      return dispatch(index + 1);
    });
  };
  try {
    return (await dispatch(0)) as T;
  } catch (failure) {
    if (
      isMcpError(failure) ||
      failure instanceof RateLimitedError ||
      failure instanceof InsufficientScopeError ||
      (stepFailure !== undefined && stepFailure.error === failure)
    ) {
      throw failure;
    }
    const reason = failure instanceof Error ? failure.message : String(failure);
    throw new McpError(ErrorCode.InternalError, `Internal error: a middleware failed: ${reason}`);
  }
}
