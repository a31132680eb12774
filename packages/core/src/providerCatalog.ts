import { ErrorCode, McpError } from '@rondo/protocol';
import {
  Catalog,
  ValidatorCache,
  capabilitiesOf,
  readLists,
  type ProviderLists,
} from './catalog.js';
import { MountConflictError, type MountOrigin } from './mount/mountTable.js';
import type { ItemKind } from './mount/naming.js';
import type { Provider, ProviderChange } from './contracts/provider.js';
import type { ServerCapabilitySet } from './contracts/server.js';
import { VisibilityRules } from './visibility.js';
import { ScopeRules } from './callScopes.js';
import { CatalogShaping } from './catalogs/catalogShaping.js';

/**
 * A server's providers and the catalog built from their lists: read once when the server gets
 * ready, read again for the provider that announces a change, never per request. A mounted
 * server's item offered under a name another provider offers too is a {@link MountConflictError}:
 * thrown by {@link ProviderCatalog.ready} (the server does not start), logged when a change brings
 * it (the first provider keeps the name until it is fixed).
 */
export class ProviderCatalog {
  readonly providers: Provider[] = [];
  readonly validators = new ValidatorCache();
  readonly visibility = new VisibilityRules();
  readonly scopeRules = new ScopeRules();
  /** Derived tools and tool search, applied at each build. */
  readonly shaping = new CatalogShaping();
  private readonly lists = new Map<Provider, ProviderLists>();
  /** The providers that offer a mounted server's items, with where those come from. */
  private readonly mounts = new Map<Provider, MountOrigin>();
  private readonly unsubscribes = new Map<Provider, () => void>();
  private current: Catalog | undefined;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly serverName: string,
    private readonly changed: (change: ProviderChange) => void,
    private readonly log: (level: 'error', message: string) => void,
  ) {}

  /**
   * Adds a provider, with where its items come from when it offers a mounted server's; the
   * catalog is read again at the next {@link ready}.
   */
  add(provider: Provider, mount?: MountOrigin): void {
    this.providers.push(provider);
    if (mount) this.mounts.set(provider, mount);
    const unsubscribe = provider.onChange?.((change) => void this.apply(provider, change));
    if (unsubscribe) this.unsubscribes.set(provider, unsubscribe);
    this.current = undefined;
    this.loading = undefined;
  }

  /**
   * Adds a provider to a catalog that may be serving already: its lists are read while the current
   * catalog keeps serving, then the catalog is rebuilt with them and clients hear that every list
   * changed. A mount conflict it brings is thrown, the provider left out.
   */
  async addServing(provider: Provider): Promise<void> {
    if (!this.current) {
      this.add(provider);
      await this.ready();
      return;
    }
    let reading = true;
    let changedMeanwhile = false;
    const unsubscribe = provider.onChange?.((change) => {
      if (reading) changedMeanwhile = true;
      else void this.apply(provider, change);
    });
    let lists = await readLists(provider);
    // A change announced while the lists were read (a connection made) may postdate them.
    if (changedMeanwhile) lists = await readLists(provider);
    reading = false;
    this.providers.push(provider);
    if (unsubscribe) this.unsubscribes.set(provider, unsubscribe);
    this.lists.set(provider, lists);
    const conflict = this.conflict();
    if (conflict) {
      this.remove(provider);
      throw conflict;
    }
    this.current = this.build();
    this.announceAll();
  }

  /**
   * Takes a provider out (it is not closed: calls it is running finish): its items leave the
   * catalog, and clients hear that every list changed. False when it was not there.
   */
  remove(provider: Provider): boolean {
    const index = this.providers.indexOf(provider);
    if (index < 0) return false;
    this.providers.splice(index, 1);
    this.unsubscribes.get(provider)?.();
    this.unsubscribes.delete(provider);
    this.lists.delete(provider);
    this.mounts.delete(provider);
    if (this.current) this.current = this.build();
    else this.loading = undefined;
    this.announceAll();
    return true;
  }

  private announceAll(): void {
    for (const kind of ['tools', 'prompts', 'resources'] as const) this.changed({ kind });
  }

  /** Reads every provider's lists once. */
  ready(): Promise<void> {
    if (this.current) return Promise.resolve();
    this.loading ??= this.loadAll();
    return this.loading;
  }

  get isReady(): boolean {
    return this.current !== undefined;
  }

  get catalog(): Catalog {
    if (!this.current)
      throw new McpError(ErrorCode.InternalError, 'Server catalog used before ready()');
    return this.current;
  }

  /** What the providers offer, for capability negotiation. */
  capabilities(): ServerCapabilitySet {
    return capabilitiesOf(this.catalog, this.providers);
  }

  /** The names that loaded providers other than mounts offer (with `local`'s, the server's own). */
  loadedNames(kind: ItemKind, except: Provider): string[] {
    const names: string[] = [];
    for (const [provider, lists] of this.lists)
      if (provider !== except && !this.mounts.has(provider)) names.push(...namesOf(lists, kind));
    return names;
  }

  private async apply(provider: Provider, change: ProviderChange): Promise<void> {
    if (change.kind !== 'resource' && this.lists.has(provider)) {
      this.lists.set(provider, await readLists(provider));
      const conflict = this.conflict();
      if (conflict) this.log('error', conflict.message);
      this.current = this.build();
      for (const problem of this.current.problems) this.log('error', problem.message);
    }
    this.changed(change);
  }

  private async loadAll(): Promise<void> {
    for (const provider of this.providers) {
      if (!this.lists.has(provider)) this.lists.set(provider, await readLists(provider));
    }
    const conflict = this.conflict();
    if (conflict) throw conflict;
    const built = this.build();
    const problem = built.problems[0];
    if (problem) throw problem;
    this.current = built;
  }

  private build(): Catalog {
    return new Catalog(
      this.providers,
      this.lists,
      this.validators,
      this.visibility,
      this.scopeRules,
      this.shaping,
    );
  }

  /** The first name a mount offers that another provider offers too (registration checks the rest). */
  private conflict(): MountConflictError | undefined {
    for (const kind of ['tool', 'prompt', 'resource', 'template'] as const) {
      const seen = new Map<string, Provider>();
      for (const provider of this.providers) {
        const lists = this.lists.get(provider);
        if (!lists) continue;
        for (const name of namesOf(lists, kind)) {
          const first = seen.get(name);
          if (first === undefined) seen.set(name, provider);
          else if (this.mounts.has(first) || this.mounts.has(provider))
            return new MountConflictError(
              kind,
              name,
              this.originOf(first, kind, name),
              this.originOf(provider, kind, name),
            );
        }
      }
    }
    return undefined;
  }

  private originOf(provider: Provider, kind: ItemKind, name: string) {
    const mount = this.mounts.get(provider);
    if (mount === undefined) return { server: this.serverName, name };
    return { server: mount.server, name: mount.innerName(kind, name) ?? name };
  }
}

function namesOf(lists: ProviderLists, kind: ItemKind): string[] {
  switch (kind) {
    case 'tool':
      return lists.tools.map((d) => d.name);
    case 'prompt':
      return lists.prompts.map((d) => d.name);
    case 'resource':
      return lists.resources.map((d) => d.uri);
    case 'template':
      return lists.templates.map((d) => d.uriTemplate);
  }
}
