import { RondoError } from '@rondo/protocol';
import { LOG_LEVELS, type LogLevel } from '@rondo/core';
import { isPlainObject, type JsonObject } from '@rondo/protocol';
import type { ServedLegacyRevision } from './options.js';
import type { SessionState } from './sessionState.js';

/** A snapshot that cannot be a session of this adapter (another version wrote it, or it is damaged). */
export class SessionSnapshotError extends RondoError {
  override readonly code: string = 'legacy.session-snapshot';
  override readonly name = 'SessionSnapshotError';
}

/**
 * A legacy session's state as plain JSON, for the store the processes of an endpoint share: what
 * `initialize` settled and what the client set since (readiness, log level, subscriptions).
 */
export function snapshotOf(state: SessionState): JsonObject {
  const negotiated = state.session;
  const snapshot: JsonObject = {
    revision: negotiated.revision,
    clientCapabilities: negotiated.clientCapabilities,
    serverCapabilities: negotiated.serverCapabilities,
    clientReady: state.clientReady,
    logLevel: state.logLevel,
    subscriptions: state.subscriptions(),
  };
  if (negotiated.clientInfo) snapshot.clientInfo = negotiated.clientInfo;
  return snapshot;
}

/**
 * Puts a snapshot's state into a session (a fresh one, or one whose client changed something in
 * another process). A snapshot this adapter cannot serve throws {@link SessionSnapshotError}.
 */
export function restoreInto(state: SessionState, snapshot: JsonObject): void {
  const revision = snapshot.revision as ServedLegacyRevision;
  if (!state.options.revisions.includes(revision))
    throw new SessionSnapshotError(`the session's revision ${String(revision)} is not served here`);
  const { clientCapabilities, serverCapabilities, clientInfo, logLevel, subscriptions } = snapshot;
  if (!isPlainObject(clientCapabilities) || !isPlainObject(serverCapabilities))
    throw new SessionSnapshotError('the session snapshot lacks its capabilities');
  if (!isLogLevel(logLevel))
    throw new SessionSnapshotError('the session snapshot has no log level');
  state.negotiated = {
    revision,
    clientCapabilities: clientCapabilities,
    serverCapabilities: serverCapabilities,
    ...(isClientInfo(clientInfo) ? { clientInfo } : {}),
  };
  state.clientReady = snapshot.clientReady === true;
  state.logLevel = logLevel;
  state.replaceSubscriptions(
    Array.isArray(subscriptions) ? subscriptions.filter((u) => typeof u === 'string') : [],
  );
}

function isLogLevel(value: unknown): value is LogLevel | 'off' {
  return value === 'off' || LOG_LEVELS.includes(value as LogLevel);
}

function isClientInfo(value: unknown): value is { name: string; version: string } {
  return (
    isPlainObject(value) && typeof value.name === 'string' && typeof value.version === 'string'
  );
}
