import type { Client } from '@rondo/client';
import type { UpstreamLink } from './upstreamLink.js';

/** The upstream lists a proxy reads. */
export type ListName = 'tools' | 'prompts' | 'resources' | 'templates';

/**
 * The upstream's lists as last read. A read while the upstream is down, or one that fails, answers
 * the list as it was last read (empty at first): a catalog read never fails the server. Without
 * `awaitConnection`, a read before the first connection does not wait for it either.
 */
export class UpstreamLists {
  private readonly last = new Map<ListName, unknown[]>();

  constructor(
    private readonly link: UpstreamLink,
    private readonly awaitConnection: boolean,
    private readonly warn: (message: string) => void,
  ) {}

  /** How many items each list had when last read. */
  sizes(): Readonly<Record<ListName, number>> {
    const size = (list: ListName): number => this.last.get(list)?.length ?? 0;
    return {
      tools: size('tools'),
      prompts: size('prompts'),
      resources: size('resources'),
      templates: size('templates'),
    };
  }

  /** Reads `list` with `reader` on the connected client (see the class comment). */
  async read<T>(list: ListName, reader: (client: Client) => Promise<T[]>): Promise<T[]> {
    try {
      const connected = this.link.connected;
      if (connected === undefined && !this.awaitConnection) {
        // Not waiting: the catalog is read again once the connection is up (`connected`).
        this.link.start().catch(() => undefined);
        return this.lastRead(list);
      }
      const value = await reader(connected ?? (await this.link.start()));
      this.last.set(list, value);
      return value;
    } catch (failure) {
      if (this.link.downReason === undefined) {
        this.warn(`${list} could not be read: ${(failure as Error).message}`);
      }
      return this.lastRead(list);
    }
  }

  private lastRead<T>(list: ListName): T[] {
    return (this.last.get(list) as T[] | undefined) ?? [];
  }
}
