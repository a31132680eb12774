import { tooManyStreams } from './errors.js';

/** An open push stream as the registry sees it: something the server's shutdown ends. */
export interface OpenStream {
  /** Ends the stream with `notifications/events/terminated` and its result. */
  terminate(): void;
}

/**
 * The push streams this process holds: each client's count under `maxStreamsPerClient` (a client
 * is its principal, else the transport's key of it, else one shared anonymous client), and the
 * set the extension's `close` terminates.
 */
export class StreamRegistry {
  private readonly streams = new Set<OpenStream>();
  private readonly perClient = new Map<string, number>();

  constructor(private readonly maxPerClient: number) {}

  /** The number of open streams. */
  get size(): number {
    return this.streams.size;
  }

  /**
   * Takes one of `client`'s places for `stream`; throws the spec's ResourceExhausted error when the
   * client holds all of them. Returns the function that gives the place back (once).
   */
  admit(client: string, stream: OpenStream): () => void {
    const held = this.perClient.get(client) ?? 0;
    if (this.maxPerClient > 0 && held >= this.maxPerClient) throw tooManyStreams(this.maxPerClient);
    this.perClient.set(client, held + 1);
    this.streams.add(stream);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.streams.delete(stream);
      const left = (this.perClient.get(client) ?? 1) - 1;
      if (left > 0) this.perClient.set(client, left);
      else this.perClient.delete(client);
    };
  }

  /** Terminates every open stream (the server is closing). */
  terminateAll(): void {
    for (const stream of [...this.streams]) stream.terminate();
  }
}
