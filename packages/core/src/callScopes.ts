import { RondoError } from '@rondo/protocol';
import type { Principal } from './contracts/definitions.js';

/**
 * Per-call scopes: what a tool, prompt, resource or template requires of the caller's token to be
 * called, apart from who may see it (`visible`). A caller without them sees the item and gets a
 * refusal naming the scopes, which an OAuth client answers by stepping up (asking for a token with
 * them) and calling again.
 */

/** The JSON-RPC code of an insufficient-scope refusal (the server range of JSON-RPC). */
export const INSUFFICIENT_SCOPE = -32003;

/** What a refused call lacked: the scopes it needs and what was called. */
export class InsufficientScopeError extends RondoError {
  override readonly code: string = 'core.insufficient-scope';
  override readonly name = 'InsufficientScopeError';
  constructor(
    /** Every scope the call needs (held ones included), in declaration order. */
    readonly required: readonly string[],
    /** What was called, for the message: `tool "deploy"`, `resource "file:///x"`. */
    readonly target: string,
  ) {
    super(
      `Forbidden: ${target} needs the scope${required.length > 1 ? 's' : ''} ${required.join(' ')}`,
    );
  }
}

/** The scopes of one server's own items, by the definition object they were registered with. */
export class ScopeRules {
  private readonly rules = new WeakMap<object, readonly string[]>();

  /** Attaches the scopes a call needs to a definition (nothing when there are none). */
  set(definition: object, scopes: readonly string[] | undefined): void {
    if (scopes !== undefined && scopes.length > 0) this.rules.set(definition, [...scopes]);
  }

  /** The scopes of a definition, if it has any. */
  of(definition: object): readonly string[] | undefined {
    return this.rules.get(definition);
  }
}

/** Throws {@link InsufficientScopeError} unless `principal` holds every one of `required`. */
export function demandScopes(
  required: readonly string[] | undefined,
  principal: Principal | undefined,
  target: string,
): void {
  if (required === undefined || required.length === 0) return;
  const held = principal?.scopes ?? [];
  if (required.every((scope) => held.includes(scope))) return;
  throw new InsufficientScopeError(required, target);
}
