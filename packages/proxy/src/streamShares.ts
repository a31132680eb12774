import type { McpError } from '@rondo/protocol';

/**
 * How many of something long-lived each client holds, under one cap per client: a place is taken
 * before the thing opens and given back (once) when it ends. A cap of 0 is none.
 */
export class StreamShares {
  private readonly held = new Map<string, number>();

  constructor(readonly max: number) {}

  /** Open places held now, over every client. */
  get size(): number {
    let total = 0;
    for (const count of this.held.values()) total += count;
    return total;
  }

  /** Takes one of `client`'s places, or throws `refusal()`; returns the function giving it back. */
  admit(client: string, refusal: () => McpError): () => void {
    const count = this.held.get(client) ?? 0;
    if (this.max > 0 && count >= this.max) throw refusal();
    this.held.set(client, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(client) ?? 1) - 1;
      if (left > 0) this.held.set(client, left);
      else this.held.delete(client);
    };
  }
}
