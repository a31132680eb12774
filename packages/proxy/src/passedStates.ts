import type { Exchange } from '@rondo/core';
import type { RequestStateSealer } from '@rondo/core/internal';
import { ErrorCode, McpError, type Json } from '@rondo/protocol';

/**
 * The method a passed-through round's state is sealed under: the gateway's own pipeline opens its
 * states as `tools/call`, so neither kind of state is ever taken for the other.
 */
const PASSED_METHOD = 'tools/call (passed through)';

/** The call a passed-through state belongs to: the tool as the caller named it, and its arguments. */
export interface PassedCall {
  readonly name: string;
  readonly arguments: unknown;
}

/**
 * Who a passed-through round belongs to: the caller's principal, else the address the transport
 * tells anonymous callers apart by (as the core does for task shares), else one anonymous caller.
 */
export function passedCaller(exchange: Exchange): string {
  if (exchange.principal) return `principal:${exchange.principal.id}`;
  return exchange.client === undefined ? 'anonymous' : `client:${exchange.client}`;
}

/**
 * The upstream's `requestState` of a passed-through round, wrapped in a state the gateway seals
 * with its key ring and binds to the caller and the call: the upstream binds its state to the one
 * client it sees (the gateway), so without this wrapping any caller holding a state could finish
 * another's round. Another caller's retry, or the same state with other arguments, is refused.
 */
export class PassedStates {
  constructor(private readonly sealer: RequestStateSealer) {}

  /** Seals the upstream's state for `caller`'s call. */
  seal(upstreamState: string, call: PassedCall, caller: string): Promise<string> {
    return this.sealer.seal(
      { method: PASSED_METHOD, identity: identityOf(call), principal: caller },
      { state: upstreamState, carry: null },
    );
  }

  /**
   * The upstream's state inside `token`, when `caller` sealed it for this call; -32602
   * `Invalid or expired requestState` otherwise (forged, expired, another caller's, other args).
   */
  async open(token: unknown, call: PassedCall, caller: string): Promise<string> {
    const opened = await this.sealer.open(token, {
      method: PASSED_METHOD,
      identity: identityOf(call),
      principal: caller,
    });
    if (typeof opened.state !== 'string') {
      throw new McpError(ErrorCode.InvalidParams, 'Invalid or expired requestState');
    }
    return opened.state;
  }
}

function identityOf(call: PassedCall): Json {
  return { name: call.name, arguments: (call.arguments ?? {}) as Json };
}
