/** Which of an upstream's tools and prompts a proxy shows, and under which names. */
export interface NameRules {
  /** Prefix of tool and prompt names (`weather` makes `get` `weather_get`); `''` for none. */
  readonly namespace?: string;
  /** Upstream names to show (exact, or with `*` for any run of characters); default all. */
  readonly include?: readonly string[];
  /** Upstream names to hide, after `include`. */
  readonly exclude?: readonly string[];
  /**
   * Tags to show: an item shows only when it carries one of them (its `_meta.fastmcp.tags`, as
   * FastMCP servers send them, or FastMCP 2's `_meta._fastmcp.tags`); default all. Applies
   * together with `include`: an item must pass both.
   */
  readonly includeTags?: readonly string[];
  /** Tags to hide: an item carrying one of them is hidden, whatever else shows it. */
  readonly excludeTags?: readonly string[];
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
 * The tags an upstream gives a tool or prompt. MCP has no tags of its own; servers built on
 * FastMCP (the most common way to tag) send them as `_meta.fastmcp.tags` (FastMCP 3) or
 * `_meta._fastmcp.tags` (FastMCP 2), and a Rondo server can set the same key in a definition's
 * `_meta`. Anything else there (not an array of strings) counts as no tags.
 */
function tagsOf(item: { _meta?: unknown }): readonly string[] {
  const meta = item._meta;
  if (typeof meta !== 'object' || meta === null) return [];
  const { fastmcp, _fastmcp: legacy } = meta as { fastmcp?: unknown; _fastmcp?: unknown };
  const tags = tagList(fastmcp) ?? tagList(legacy);
  return tags ?? [];
}

function tagList(value: unknown): string[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const tags = (value as { tags?: unknown }).tags;
  if (!Array.isArray(tags)) return undefined;
  return tags.filter((tag): tag is string => typeof tag === 'string');
}

/**
 * Maps upstream names to the names clients see and back. Built from a catalog, so the way back
 * holds only names the catalog had: a client cannot reach an excluded tool by guessing its name.
 */
export class NameMap {
  private readonly included: (name: string) => boolean;
  private readonly excluded: (name: string) => boolean;
  private readonly includedTags: ReadonlySet<string> | undefined;
  private readonly excludedTags: ReadonlySet<string>;
  private readonly toUpstream = new Map<string, string>();

  constructor(private readonly rules: NameRules) {
    this.included = rules.include ? matcher(rules.include) : () => true;
    this.excluded = matcher(rules.exclude ?? []);
    this.includedTags = rules.includeTags ? new Set(rules.includeTags) : undefined;
    this.excludedTags = new Set(rules.excludeTags ?? []);
  }

  /** The name clients see for an upstream name, or `undefined` when it is hidden. */
  exposed(upstream: string): string | undefined {
    if (!this.included(upstream) || this.excluded(upstream)) return undefined;
    const renamed = this.rules.rename?.[upstream];
    if (renamed !== undefined) return renamed;
    return this.rules.namespace ? `${this.rules.namespace}_${upstream}` : upstream;
  }

  /**
   * Learns a catalog: keeps the shown items (by name and by tags), renamed; later lookups go by
   * this catalog.
   */
  learn<T extends { name: string; _meta?: unknown }>(items: readonly T[]): T[] {
    this.toUpstream.clear();
    const shown: T[] = [];
    for (const item of items) {
      if (!this.tagsShow(item)) continue;
      const name = this.exposed(item.name);
      if (name === undefined || this.toUpstream.has(name)) continue;
      this.toUpstream.set(name, item.name);
      shown.push({ ...item, name });
    }
    return shown;
  }

  /** True when an item's tags let it show: one of `includeTags` (if set), none of `excludeTags`. */
  private tagsShow(item: { _meta?: unknown }): boolean {
    if (this.includedTags === undefined && this.excludedTags.size === 0) return true;
    const tags = tagsOf(item);
    if (tags.some((tag) => this.excludedTags.has(tag))) return false;
    const included = this.includedTags;
    return included === undefined || tags.some((tag) => included.has(tag));
  }

  /** The upstream name of a name clients see, when the last catalog showed it. */
  upstream(exposed: string): string | undefined {
    return this.toUpstream.get(exposed);
  }
}
