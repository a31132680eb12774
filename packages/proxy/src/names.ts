/** Which of an upstream's tools and prompts a proxy shows, and under which names. */
export interface NameRules {
  /** Prefix of tool and prompt names (`weather` makes `get` `weather_get`); `''` for none. */
  readonly namespace?: string;
  /** Upstream names to show (exact, or with `*` for any run of characters); default all. */
  readonly include?: readonly string[];
  /** Upstream names to hide, after `include`. */
  readonly exclude?: readonly string[];
  /** New names by upstream name; a renamed item takes its new name as is, without the namespace. */
  readonly rename?: Readonly<Record<string, string>>;
}

function matcher(patterns: readonly string[]): (name: string) => boolean {
  const expressions = patterns.map(
    (pattern) =>
      new RegExp(
        `^${pattern
          .split('*')
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      ),
  );
  return (name) => expressions.some((expression) => expression.test(name));
}

/**
 * Maps upstream names to the names clients see and back. Built from a catalog, so the way back
 * holds only names the catalog had: a client cannot reach an excluded tool by guessing its name.
 */
export class NameMap {
  private readonly included: (name: string) => boolean;
  private readonly excluded: (name: string) => boolean;
  private readonly toUpstream = new Map<string, string>();

  constructor(private readonly rules: NameRules) {
    this.included = rules.include ? matcher(rules.include) : () => true;
    this.excluded = matcher(rules.exclude ?? []);
  }

  /** The name clients see for an upstream name, or `undefined` when it is hidden. */
  exposed(upstream: string): string | undefined {
    if (!this.included(upstream) || this.excluded(upstream)) return undefined;
    const renamed = this.rules.rename?.[upstream];
    if (renamed !== undefined) return renamed;
    return this.rules.namespace ? `${this.rules.namespace}_${upstream}` : upstream;
  }

  /** Learns a catalog: keeps the shown items, renamed; later lookups go by this catalog. */
  learn<T extends { name: string }>(items: readonly T[]): T[] {
    this.toUpstream.clear();
    const shown: T[] = [];
    for (const item of items) {
      const name = this.exposed(item.name);
      if (name === undefined || this.toUpstream.has(name)) continue;
      this.toUpstream.set(name, item.name);
      shown.push({ ...item, name });
    }
    return shown;
  }

  /** The upstream name of a name clients see, when the last catalog showed it. */
  upstream(exposed: string): string | undefined {
    return this.toUpstream.get(exposed);
  }
}
