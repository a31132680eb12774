import fc from 'fast-check';
import { SEED_MESSAGES, type Message } from './messages.js';

/**
 * fast-check generators of hostile input: random bytes, random JSON, and valid messages of both
 * eras mutated at one random place (a member dropped, replaced by random JSON, or a type swapped).
 */

type Path = (string | number)[];

function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  const entries = Array.isArray(value)
    ? value.map((v, i) => [i, v] as const)
    : Object.entries(value);
  return [prefix, ...entries.flatMap(([key, child]) => pathsOf(child, [...prefix, key]))];
}

function mutate(message: Message, path: Path, replacement: unknown, drop: boolean): unknown {
  if (path.length === 0) return drop ? undefined : replacement;
  const copy = structuredClone(message) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (drop) delete parent[last];
  else parent[last] = replacement;
  return copy;
}

/** A seed message with one mutation (or none, one time in five). */
export const mutatedMessage: fc.Arbitrary<unknown> = fc
  .constantFrom(...SEED_MESSAGES)
  .chain((seed) =>
    fc.tuple(
      fc.constant(seed),
      fc.constantFrom(...pathsOf(seed)),
      fc.oneof(
        fc.jsonValue({ maxDepth: 2 }),
        fc.constantFrom(null, '', 0, -1, 2 ** 53, 'tools/call', [], {}),
      ),
      fc.nat(4),
    ),
  )
  .map(([seed, path, replacement, op]) =>
    op === 0 ? seed : mutate(seed, path, replacement, op === 1),
  );

/** Text of a frame: JSON of a mutated message, random JSON, or random bytes decoded as UTF-8. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: mutatedMessage.map((m) => JSON.stringify(m) ?? 'undefined') },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
  {
    weight: 2,
    arbitrary: fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('utf8')),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 50 }) },
);

/** Raw bytes of a frame: mostly {@link hostileText}, sometimes bytes that are not UTF-8 at all. */
export const hostileBytes: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 4, arbitrary: hostileText.map((t) => Buffer.from(t, 'utf8')) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)) },
);
