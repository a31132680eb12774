import type { Peer, PeerSendOptions } from '@rondo/core';
import type { JsonRpcMessage } from '@rondo/protocol';

/**
 * The peer of a connection opened by a POST. Messages sent before the connection has a session
 * wait here; once it has one they go to the session's standalone stream.
 */
/**
 * At most this many messages wait for a session. A connection that never becomes one (every stateless
 * POST) drops them with the relay; the cap keeps a chatty provider from growing that buffer.
 */
const MAX_EARLY_MESSAGES = 100;

/** Where a relay's messages go once its connection has a session. */
export interface RelayTarget {
  /** `once` names the message alike in every process sending it (see `PeerSendOptions`). */
  write(message: JsonRpcMessage, once?: string): void;
  /** Ends the response receiving the session's channel, when the client can resume it. */
  closeStream(): void;
}

export class PeerRelay implements Peer {
  private target: RelayTarget | undefined;
  /** Messages sent before there is a session, each with its `once` key. */
  private early: [JsonRpcMessage, string | undefined][] | undefined;

  send(message: JsonRpcMessage, options?: PeerSendOptions): void {
    if (this.target) this.target.write(message, options?.once);
    else if ((this.early ??= []).length < MAX_EARLY_MESSAGES)
      this.early.push([message, options?.once]);
  }

  closeStream(): void {
    this.target?.closeStream();
  }

  /** Routes this peer's messages (and the early ones) to `target`. */
  bind(target: RelayTarget): void {
    this.target = target;
    const early = this.early;
    this.early = undefined;
    for (const [message, once] of early ?? []) target.write(message, once);
  }
}
