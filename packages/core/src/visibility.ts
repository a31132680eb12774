import type { Principal } from './contracts/definitions.js';

/**
 * Per-caller visibility: a rule on a tool, prompt, resource or template that decides, per
 * principal, whether the caller may see it. A hidden item is left out of lists and answers calls
 * exactly as an unknown one does, so it cannot be probed.
 */
export type Visibility = (principal: Principal | undefined) => boolean;

/**
 * A rule that shows an item only to principals holding every one of `scopes` (an OAuth token's
 * scopes, say).
 */
export function requireScopes(...scopes: string[]): Visibility {
  return (principal) => scopes.every((scope) => principal?.scopes?.includes(scope) ?? false);
}

/** The rules of one server, by the definition object they were registered with. */
export class VisibilityRules {
  private readonly rules = new WeakMap<object, Visibility>();

  /** Attaches a rule to a definition (nothing when `rule` is undefined). */
  set(definition: object, rule: Visibility | undefined): void {
    if (rule !== undefined) this.rules.set(definition, rule);
  }

  /** The rule of a definition, if it has one. */
  of(definition: object): Visibility | undefined {
    return this.rules.get(definition);
  }
}

/** True when an entry with `rule` is visible to `principal` (an entry without a rule always is). */
export function isVisible(rule: Visibility | undefined, principal: Principal | undefined): boolean {
  return rule === undefined || rule(principal);
}
