import { ConfigurationError } from '../errors.js';
import { checkToolName } from '../toolRules.js';
import type { ItemKind, MountNaming } from './naming.js';

/** Where an offered item comes from: the server that registered it, under its own name there. */
export interface ItemOrigin {
  readonly server: string;
  readonly name: string;
}

/**
 * A provider that offers a mounted server's items, as its host's catalog tells it from the host's
 * own providers (a name both offer is a conflict, reported with both origins).
 */
export interface MountOrigin {
  /** The mounted server's name. */
  readonly server: string;
  /** The mounted server's own name of the item its host offers as `name`. */
  innerName(kind: ItemKind, name: string): string | undefined;
}

const KIND_LABEL: Readonly<Record<ItemKind, string>> = {
  tool: 'tool',
  prompt: 'prompt',
  resource: 'resource',
  template: 'resource template',
};

/**
 * Two items would be offered under one name by a server that mounts another: a mistake, refused
 * when the mount is made or the second item registered, rather than one silently shadowing the
 * other. Names the offered name and both items with their servers.
 */
export class MountConflictError extends ConfigurationError {
  override readonly code: string = 'core.mount-conflict';
  override readonly name = 'MountConflictError';
  constructor(
    /** What the conflict is about. */
    readonly kind: ItemKind,
    /** The name (or URI) both would be offered under. */
    readonly offeredAs: string,
    /** The item there first. */
    readonly existing: ItemOrigin,
    /** The item refused. */
    readonly incoming: ItemOrigin,
  ) {
    const label = KIND_LABEL[kind];
    const describe = (origin: ItemOrigin) =>
      `${label} ${JSON.stringify(origin.name)} of server ${JSON.stringify(origin.server)}`;
    super(
      `mount conflict: ${label} ${JSON.stringify(offeredAs)} would be offered twice, by the ${describe(existing)} and by the ${describe(incoming)}; rename one or mount with another namespace`,
    );
  }
}

/** A server mounted in another, as the table of its host sees it. */
export interface MountChild {
  readonly naming: MountNaming;
  /** The mounted server's own table. */
  readonly table: MountTable;
}

/** What the table asks of the server that owns it. */
export interface MountOwner {
  readonly name: string;
  /** The names the server's own providers (everything but its mounts) offer now. */
  ownNames(kind: ItemKind): Iterable<string>;
}

const KINDS: readonly ItemKind[] = ['tool', 'prompt', 'resource', 'template'];

/**
 * The mounts of one server, both ways: the servers it mounts and the servers that mount it. It
 * keeps the names every host offers unique: a mount, or an item registered later on either side,
 * that would offer a name twice is refused with a {@link MountConflictError} where it is made.
 * Names are computed when asked (at registration), never per request.
 */
export class MountTable {
  private readonly children: MountChild[] = [];
  private readonly hosts: { table: MountTable; via: MountChild }[] = [];

  constructor(private readonly owner: MountOwner) {}

  /** Every name the server offers of one kind (its own and its mounts'), with where each comes from. */
  offered(kind: ItemKind): Map<string, ItemOrigin> {
    const names = new Map<string, ItemOrigin>();
    for (const name of this.owner.ownNames(kind))
      names.set(name, { server: this.owner.name, name });
    for (const child of this.children)
      for (const [name, origin] of child.table.offered(kind))
        names.set(child.naming.outer(kind, name), origin);
    return names;
  }

  /** Adds a mount, refusing a cycle and any name it would offer twice (here or in a host above). */
  mount(child: MountChild): void {
    if (child.table === this || child.table.contains(this))
      throw new ConfigurationError(
        `mount: server "${this.owner.name}" cannot mount a server that contains it`,
      );
    for (const kind of KINDS)
      for (const [name, origin] of child.table.offered(kind)) {
        const outer = child.naming.outer(kind, name);
        if (kind === 'tool') checkToolName(outer);
        this.claimIncoming(kind, outer, undefined, origin);
      }
    this.children.push(child);
    child.table.hosts.push({ table: this, via: child });
  }

  /**
   * Refuses an item the server is about to register itself when a mount already offers its name,
   * or when a host of the server would then offer a name twice.
   */
  claimOwn(kind: ItemKind, name: string): void {
    const origin = { server: this.owner.name, name };
    for (const child of this.children) {
      const existing = child.table.offered(kind);
      for (const [childName, childOrigin] of existing)
        if (child.naming.outer(kind, childName) === name)
          throw new MountConflictError(kind, name, childOrigin, origin);
    }
    this.passUp(kind, name, origin);
  }

  private claimIncoming(
    kind: ItemKind,
    name: string,
    except: MountChild | undefined,
    origin: ItemOrigin,
  ): void {
    for (const own of this.owner.ownNames(kind))
      if (own === name)
        throw new MountConflictError(kind, name, { server: this.owner.name, name }, origin);
    for (const child of this.children) {
      if (child === except) continue;
      for (const [childName, childOrigin] of child.table.offered(kind))
        if (child.naming.outer(kind, childName) === name)
          throw new MountConflictError(kind, name, childOrigin, origin);
    }
    this.passUp(kind, name, origin);
  }

  private passUp(kind: ItemKind, name: string, origin: ItemOrigin): void {
    for (const { table, via } of this.hosts) {
      const outer = via.naming.outer(kind, name);
      if (kind === 'tool') checkToolName(outer);
      table.claimIncoming(kind, outer, via, origin);
    }
  }

  private contains(table: MountTable): boolean {
    return this.children.some((child) => child.table === table || child.table.contains(table));
  }
}
