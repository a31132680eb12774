import { randomUUID } from 'node:crypto';
import type { ChangeBus, ProviderChange, PublishedChange, SessionRelay } from '@rondo/core';
import {
  isPlainObject,
  serializeMessage,
  validateMessage,
  type JsonRpcMessage,
} from '@rondo/protocol';
import type { RedisConnection } from './connection.js';

/**
 * List changes and `resources/updated` over Redis pub/sub (`<prefix>changes`): each publish is
 * heard once by every process subscribed at that moment, the publisher included. A process that is
 * disconnected when a change is published misses it (pub/sub keeps nothing); its clients see the
 * next change, and lists are read again by then.
 */
export class RedisChangeBus implements ChangeBus {
  constructor(
    private readonly connection: RedisConnection,
    private readonly channel: string,
  ) {}

  async publish(change: ProviderChange): Promise<void> {
    await this.connection.publish(this.channel, JSON.stringify({ id: randomUUID(), change }));
  }

  subscribe(listener: (published: PublishedChange) => void): () => void {
    return this.connection.listen(this.channel, (payload) => {
      const published = decodeChange(payload);
      if (published === undefined) this.connection.report('skipped a malformed change message');
      else listener(published);
    });
  }
}

/** A published change as it came off the channel; `undefined` when it is not one. */
function decodeChange(payload: string): PublishedChange | undefined {
  const value = parseJson(payload);
  if (!isPlainObject(value) || typeof value.id !== 'string') return undefined;
  const change = value.change;
  if (!isPlainObject(change)) return undefined;
  if (change.kind === 'tools' || change.kind === 'prompts' || change.kind === 'resources') {
    return { id: value.id, change: { kind: change.kind } };
  }
  if (change.kind === 'resource' && typeof change.uri === 'string') {
    return { id: value.id, change: { kind: 'resource', uri: change.uri } };
  }
  return undefined;
}

/**
 * Messages of a session relayed between processes over Redis pub/sub (`<prefix>relay`): each
 * carries the process that sent it, and a process does not hear its own.
 */
export class RedisSessionRelay implements SessionRelay {
  constructor(
    private readonly connection: RedisConnection,
    private readonly channel: string,
  ) {}

  async forward(sessionId: string, message: JsonRpcMessage): Promise<void> {
    const from = JSON.stringify(this.connection.processId);
    const session = JSON.stringify(sessionId);
    // The message is spliced in as serialized, so a result kept as JSON text is not parsed again.
    const payload = `{"from":${from},"sessionId":${session},"message":${serializeMessage(message)}}`;
    await this.connection.publish(this.channel, payload);
  }

  receive(listener: (sessionId: string, message: JsonRpcMessage) => void): () => void {
    return this.connection.listen(this.channel, (payload) => {
      const value = parseJson(payload);
      if (!isPlainObject(value) || typeof value.sessionId !== 'string') {
        this.connection.report('skipped a malformed relayed message');
        return;
      }
      if (value.from === this.connection.processId) return;
      const parsed = validateMessage(value.message);
      if (!parsed.ok) {
        this.connection.report(`skipped an invalid message relayed for session ${value.sessionId}`);
        return;
      }
      listener(value.sessionId, parsed.message);
    });
  }
}

/** The JSON value of a text, `undefined` when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
