/** What a name or URI of a gateway's catalog identifies. */
export type ClaimKind = 'tool' | 'prompt' | 'resource' | 'template';

/** The list a kind of item is read from, as a provider announces its change. */
const LIST_OF: Record<ClaimKind, 'tools' | 'prompts' | 'resources'> = {
  tool: 'tools',
  prompt: 'prompts',
  resource: 'resources',
  template: 'resources',
};

/**
 * Who holds each tool and prompt name and each resource URI and template across the entries of
 * one gateway, so that no entry shadows another without a word: an item two entries offer is
 * served by the entry that comes first in the configuration, and left out of the other's list
 * with a warning naming both. An entry that comes first takes a name back when it lists it later
 * (an upstream that connected late), and one left out gets it when the holder stops listing it:
 * the entry whose list must be read again is told through its `relist` callback.
 */
export class CatalogClaims {
  private readonly holders = new Map<string, string>();
  private readonly leftOut = new Map<string, Set<string>>();
  private readonly relisters = new Map<string, (list: 'tools' | 'prompts' | 'resources') => void>();
  /** The collisions warned about, with the two entries of each. */
  private readonly warned = new Map<string, readonly [string, string]>();

  constructor(
    /** The entries in the configuration's order: the earlier one keeps a name both offer. */
    private readonly order: readonly string[],
    private readonly warn: (message: string) => void,
  ) {}

  /** Registers how an entry's lists are read again (its provider announces a change). */
  enrol(owner: string, relist: (list: 'tools' | 'prompts' | 'resources') => void): void {
    this.relisters.set(owner, relist);
  }

  /** The items of a list `owner` just read that it may serve: those no earlier entry holds. */
  keep<T>(owner: string, kind: ClaimKind, items: readonly T[], nameOf: (item: T) => string): T[] {
    this.release(owner, kind, new Set(items.map(nameOf)));
    const kept: T[] = [];
    for (const item of items) {
      const name = nameOf(item);
      const key = `${kind} ${name}`;
      const holder = this.holders.get(key);
      if (holder !== undefined && holder !== owner && this.rank(holder) < this.rank(owner)) {
        this.leaveOut(key, owner, holder, kind, name);
        continue;
      }
      if (holder !== undefined && holder !== owner) {
        this.leaveOut(key, holder, owner, kind, name);
        this.relisters.get(holder)?.(LIST_OF[kind]);
      }
      this.holders.set(key, owner);
      kept.push(item);
    }
    return kept;
  }

  /**
   * Forgets entry `owner` (taken out of the gateway by a reload): what it held goes to the entries
   * left out of it, whose lists are read again, and it waits for nothing. The same name added
   * again starts afresh, its collisions warned about again.
   */
  drop(owner: string): void {
    for (const kind of Object.keys(LIST_OF) as ClaimKind[]) this.release(owner, kind, new Set());
    for (const [key, waiting] of this.leftOut) {
      waiting.delete(owner);
      if (waiting.size === 0) this.leftOut.delete(key);
    }
    this.relisters.delete(owner);
    for (const [said, entries] of this.warned) {
      if (entries.includes(owner)) this.warned.delete(said);
    }
  }

  /** Frees what `owner` held of `kind` and no longer lists; entries left out of it list again. */
  private release(owner: string, kind: ClaimKind, listed: ReadonlySet<string>): void {
    const prefix = `${kind} `;
    for (const [key, holder] of this.holders) {
      if (holder !== owner || !key.startsWith(prefix) || listed.has(key.slice(prefix.length))) {
        continue;
      }
      this.holders.delete(key);
      for (const waiting of this.leftOut.get(key) ?? []) {
        this.relisters.get(waiting)?.(LIST_OF[kind]);
      }
      this.leftOut.delete(key);
    }
  }

  private leaveOut(key: string, loser: string, holder: string, kind: ClaimKind, name: string) {
    let waiting = this.leftOut.get(key);
    if (!waiting) this.leftOut.set(key, (waiting = new Set()));
    waiting.add(loser);
    const said = `${key} ${loser} ${holder}`;
    if (this.warned.has(said)) return;
    this.warned.set(said, [loser, holder]);
    this.warn(
      `${kind} "${name}" of entry "${loser}" left out: entry "${holder}" offers it too ` +
        '(give one of them a namespace, or rename or exclude it)',
    );
  }

  private rank(owner: string): number {
    const index = this.order.indexOf(owner);
    return index < 0 ? this.order.length : index;
  }
}
