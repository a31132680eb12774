import {
  LOG_LEVELS,
  type LogLevel,
  type Peer,
  type ServerChange,
  type ServerLogMessage,
} from '@rondo/core';
import type { ServerRuntime } from '@rondo/core/internal';
import { isPlainObject, type JsonRpcNotification } from '@rondo/protocol';
import type { SessionState } from './sessionState.js';

const LIST_CHANGED = {
  tools: 'notifications/tools/list_changed',
  prompts: 'notifications/prompts/list_changed',
  resources: 'notifications/resources/list_changed',
} as const;

/**
 * Turns a server change into the session's notification, if any: a list change when the server
 * announced `listChanged` for that list at initialize, a resource update only for a subscribed URI.
 * Sent on the peer's own channel, since no request is waiting for them.
 */
export function announceChange(
  state: SessionState,
  peer: Peer,
  change: ServerChange,
  changeId: string,
): void {
  const negotiated = state.negotiated;
  if (!negotiated) return;
  let notification: JsonRpcNotification | undefined;
  if (change.kind === 'resource') {
    if (state.isSubscribed(change.uri)) {
      notification = {
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: change.uri },
      };
    }
  } else {
    const capability = negotiated.serverCapabilities[change.kind];
    if (isPlainObject(capability) && capability.listChanged === true) {
      notification = { jsonrpc: '2.0', method: LIST_CHANGED[change.kind] };
    }
  }
  // Where several processes hold this session, each announces the change: the key makes it one.
  if (notification) peer.send(notification, { once: changeId });
}

/**
 * A server-wide message, sent on the session's own channel when the level the client set with
 * `logging/setLevel` (or the era's default) admits it.
 */
export function relayLog(state: SessionState, peer: Peer, message: ServerLogMessage): void {
  if (!state.negotiated || !admits(state.logLevel, message.level)) return;
  peer.send({ jsonrpc: '2.0', method: 'notifications/message', params: { ...message } });
}

function admits(threshold: LogLevel | 'off', level: LogLevel): boolean {
  return threshold !== 'off' && LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}

/** A session that announces the server's changes and messages to its client. */
export interface ChangeListener {
  announce(change: ServerChange, changeId: string): void;
  relay(message: ServerLogMessage): void;
}

/**
 * The change listener of one server for all its legacy sessions: one subscription to the server
 * while any session is open, instead of a closure per session.
 */
export class SessionChanges {
  private readonly sessions = new Set<ChangeListener>();
  private stop: (() => void) | undefined;

  constructor(private readonly runtime: ServerRuntime) {}

  add(session: ChangeListener): void {
    this.sessions.add(session);
    this.stop ??= this.listen();
  }

  delete(session: ChangeListener): void {
    if (!this.sessions.delete(session) || this.sessions.size > 0) return;
    this.stop?.();
    this.stop = undefined;
  }

  private listen(): () => void {
    const stopChanges = this.runtime.onChange((change, changeId) => {
      for (const listener of this.sessions) listener.announce(change, changeId);
    });
    const stopLogs = this.runtime.onLog((message) => {
      for (const listener of this.sessions) listener.relay(message);
    });
    return () => {
      stopChanges();
      stopLogs();
    };
  }
}
