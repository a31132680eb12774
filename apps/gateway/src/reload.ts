import { isDeepStrictEqual } from 'node:util';
import type { Provider, RondoServer } from '@rondo/core';
import { runtimeOf } from '@rondo/core/internal';
import { ProxyProvider, type CatalogClaims } from '@rondo/proxy';
import type { GatewayEntry } from './config.js';

/** What a reload did, by entry key. */
export interface ReloadOutcome {
  readonly added: string[];
  readonly removed: string[];
  readonly changed: string[];
  /** Entries of the new configuration that could not start (a Prolog file that fails to load). */
  readonly failed: { readonly key: string; readonly error: string }[];
}

/** How a reload makes and drains providers. */
export interface ReloadDeps {
  readonly providerFor: (entry: GatewayEntry) => Promise<Provider>;
  /** Longest wait for a removed entry's calls in flight before it is closed (ms). Default 5 min. */
  readonly drainMs?: number;
  /** The gateway's table of names and URIs: a removed entry's are given up at once. */
  readonly claims?: CatalogClaims;
}

/**
 * The gateway's entries while it serves, changed by a reload without a restart: an entry whose
 * configuration is the same keeps its provider (its connection, its calls); a removed or changed
 * one leaves the catalog at once and is closed once its calls in flight have finished; an added
 * or changed one joins (clients hear `list_changed`). Reloads run one at a time.
 */
export class LiveEntries {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly draining = new Set<Promise<void>>();

  constructor(
    private readonly server: RondoServer,
    readonly entries: Map<string, GatewayEntry>,
    readonly providers: Map<string, Provider>,
    private readonly deps: ReloadDeps,
  ) {}

  /** Applies `next` (see the class comment). */
  reload(next: readonly GatewayEntry[]): Promise<ReloadOutcome> {
    const run = this.queue.then(() => this.apply(next));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Resolves once the entries a reload took out have finished their calls and closed. */
  async drained(): Promise<void> {
    await Promise.all([...this.draining]);
  }

  private async apply(next: readonly GatewayEntry[]): Promise<ReloadOutcome> {
    const outcome: ReloadOutcome = { added: [], removed: [], changed: [], failed: [] };
    const wanted = new Map(next.map((entry) => [entry.key, entry]));
    for (const [key, entry] of this.entries) {
      const kept = wanted.get(key);
      if (kept !== undefined && isDeepStrictEqual(kept, entry)) continue;
      if (!this.takeOut(key)) {
        // Mounted behind its own tool search: the mount cannot be taken out while serving.
        outcome.failed.push({
          key,
          error: 'an entry with its own toolSearch reloads on a restart',
        });
        wanted.set(key, entry);
        continue;
      }
      (kept === undefined ? outcome.removed : outcome.changed).push(key);
    }
    for (const entry of wanted.values()) {
      if (this.entries.has(entry.key)) continue;
      try {
        const provider = await this.deps.providerFor(entry);
        await runtimeOf(this.server).sources.addServing(provider);
        this.entries.set(entry.key, entry);
        this.providers.set(entry.key, provider);
      } catch (failure) {
        outcome.failed.push({ key: entry.key, error: (failure as Error).message });
        continue;
      }
      if (!outcome.changed.includes(entry.key)) outcome.added.push(entry.key);
    }
    return outcome;
  }

  /**
   * Takes an entry out of the catalog now (false when its provider is not one the server holds
   * directly); its provider closes once its calls have finished.
   */
  private takeOut(key: string): boolean {
    const provider = this.providers.get(key);
    if (provider === undefined || !runtimeOf(this.server).sources.remove(provider)) return false;
    this.entries.delete(key);
    this.providers.delete(key);
    // The entries it shadowed serve those names now (a changed entry claims again when it joins).
    this.deps.claims?.drop(key);
    const draining = drainThenClose(provider, this.deps.drainMs ?? 300_000);
    this.draining.add(draining);
    void draining.finally(() => this.draining.delete(draining));
    return true;
  }
}

/** Waits until `provider` runs no call (at most `ms`), then closes it. */
async function drainThenClose(provider: Provider, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (provider instanceof ProxyProvider && provider.callsInFlight > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await provider.close?.().catch(() => undefined);
}
