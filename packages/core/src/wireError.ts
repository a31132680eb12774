import { ErrorCode, McpError, isMcpError, type JsonRpcErrorObject } from '@rondo/protocol';
import { MissingClientCapabilityError, RoundLimitError, StoreLimitError } from './errors.js';
import { INSUFFICIENT_SCOPE, InsufficientScopeError } from './callScopes.js';
import { RATE_LIMITED, RateLimitedError } from './rateLimited.js';
import type { Disposition } from './transport.js';

/**
 * The one place where a failure becomes a wire error: an {@link McpError} keeps its code, the
 * core's local failures get theirs (a missing client capability -32021, the round limit -32603 with
 * `data.roundLimit`), anything else is an internal error (-32603) whose message names the failure
 * without a stack. An era adapter may restate a code its wire lacks, and does so after this.
 */
export function toWireError(failure: unknown): JsonRpcErrorObject {
  return toMcpError(failure).toJson();
}

/** {@link toWireError} as an {@link McpError}, for code that rethrows. */
export function toMcpError(failure: unknown): McpError {
  if (isMcpError(failure)) return failure;
  if (failure instanceof MissingClientCapabilityError) {
    return new McpError(ErrorCode.MissingClientCapability, failure.message, {
      requiredCapabilities: failure.required,
    });
  }
  if (failure instanceof RoundLimitError) {
    return new McpError(ErrorCode.InternalError, failure.message, { roundLimit: failure.limit });
  }
  if (failure instanceof StoreLimitError) {
    return new McpError(ErrorCode.InternalError, failure.message, {
      limit: failure.limit,
      [failure.limit]: failure.value,
    });
  }
  if (failure instanceof InsufficientScopeError) {
    return new McpError(INSUFFICIENT_SCOPE, failure.message, {
      error: 'insufficient_scope',
      requiredScopes: [...failure.required],
    });
  }
  if (failure instanceof RateLimitedError) {
    return new McpError(RATE_LIMITED, failure.message, { retryAfterMs: failure.retryAfterMs });
  }
  const message = failure instanceof Error ? failure.message : String(failure);
  return new McpError(ErrorCode.InternalError, `Internal error: ${message}`);
}

/**
 * The disposition of a policy's refusal, the same in every era: `forbidden` for missing scopes,
 * `throttled` for a rate limit; undefined for anything else (the era decides).
 */
export function policyDisposition(failure: unknown): Disposition | undefined {
  if (failure instanceof InsufficientScopeError) return 'forbidden';
  if (failure instanceof RateLimitedError) return 'throttled';
  return undefined;
}
