import type { JsonObject } from '@rondo/protocol';
import { stableStringify } from '@rondo/core/internal';

/**
 * Whether a subscription with `args` receives an occurrence emitted with `match`: every member of
 * `match` the subscription's arguments name must be equal there (a JSON value, compared whole).
 * A member the arguments leave out does not narrow the subscription, and an occurrence emitted
 * without `match` reaches every subscription of its type.
 */
export function matchesSubscription(
  match: JsonObject | undefined,
  args: Readonly<Record<string, unknown>>,
): boolean {
  if (match === undefined) return true;
  for (const [key, wanted] of Object.entries(match)) {
    if (!Object.hasOwn(args, key)) continue;
    if (stableStringify(args[key]) !== stableStringify(wanted)) return false;
  }
  return true;
}
