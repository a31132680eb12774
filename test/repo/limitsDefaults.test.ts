import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LISTEN_IDLE_TIMEOUT_MS } from '@rondo/adapter-2026';
import { DPOP_PROOF_DEFAULTS, INTROSPECTION_PACING_DEFAULTS } from '@rondo/auth';
import {
  CONNECTION_LIMIT_DEFAULTS,
  DEFAULT_MAX_PAGE_BYTES,
  DEFAULT_MAX_USED_STATES,
} from '@rondo/core';
import { DEFAULT_EVENTS_LIMITS, DEFAULT_REPLAY, DEFAULT_WEBHOOK_LIMITS } from '@rondo/events';
import { DEFAULT_MAX_CATALOG_BYTES } from '@rondo/proxy';
import { TASK_LIMIT_DEFAULTS } from '@rondo/tasks';
import { HTTP_TRANSPORT_DEFAULTS, MEMORY_EVENT_STORE_DEFAULTS } from '@rondo/transport-http';
import { WEBSOCKET_DEFAULTS } from '@rondo/transport-ws';

// Issue 31, done-when 2: the defaults docs/limits.md gives are the code's own, read from the
// packages' public entries (the constants the code applies). Each option's row is found by the
// option's name, and its default column must read as the value the code exports.

const root = fileURLToPath(new URL('../..', import.meta.url));
const MIB = 1024 * 1024;

/** How a value is written: bytes in MiB, durations in min, s or ms (0: off), counts. */
type Kind = 'bytes' | 'ms' | 'seconds' | 'count';

/** How limits.md writes a value of that kind (counts from 1,000 with a thousands separator). */
function spellings(value: number, kind: Kind): string[] {
  if (kind === 'bytes' && value % MIB === 0) return [`${value / MIB} MiB`];
  if (kind === 'seconds') return [`${value} s`];
  if (kind === 'ms') {
    if (value === 0) return ['off'];
    if (value % 60_000 === 0) return [`${value / 60_000} min`];
    if (value % 1000 === 0) return [`${value / 1000} s`];
    return [`${value} ms`];
  }
  return [value.toLocaleString('en-US'), String(value)];
}

/** The table rows of limits.md, as cells. */
function rows(): string[][] {
  const text = readFileSync(join(root, 'docs/limits.md'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) => line.split('|').map((cell) => cell.trim()));
}

/**
 * The default cell of the first row that names `option` (in its option or default cell), or of
 * the first whose option cell holds `row` when a name alone is ambiguous.
 */
function documentedDefault(option: string, row?: string): string | undefined {
  const named = new RegExp(`\\b${option}\\b`);
  const found = rows().find((cells) =>
    row === undefined
      ? named.test(cells[3] ?? '') || named.test(cells[2] ?? '')
      : (cells[3] ?? '').includes(row),
  );
  return found?.[2];
}

/**
 * Option, the code's default, its kind, and where in the cell it is written: at the start unless
 * `after` names the words before it (two values in one cell); `row` for an ambiguous name.
 */
interface Documented {
  option: string;
  value: number;
  kind: Kind;
  after?: string;
  row?: string;
}

const { maxTasksPerOwner, maxTaskResultBytes, maxTaskBytesPerOwner, maxTaskBytes } =
  TASK_LIMIT_DEFAULTS;
const EVENTS = MEMORY_EVENT_STORE_DEFAULTS;
const HTTP = HTTP_TRANSPORT_DEFAULTS;
const CONNECTIONS = CONNECTION_LIMIT_DEFAULTS;

const DEFAULTS: Documented[] = [
  // Sessions, streams and connections.
  { option: 'maxBodyBytes', value: HTTP.maxBodyBytes, kind: 'bytes' },
  { option: 'sessionIdleTimeoutMs', value: HTTP.sessionIdleTimeoutMs, kind: 'ms' },
  { option: 'maxSessions', value: HTTP.maxSessions, kind: 'count' },
  { option: 'maxSessionsPerClient', value: HTTP.maxSessionsPerClient, kind: 'count' },
  { option: 'maxStreamsPerSession', value: HTTP.maxStreamsPerSession, kind: 'count' },
  { option: 'maxOpenStreams', value: HTTP.maxOpenStreams, kind: 'count' },
  { option: 'maxStreamsPerClient', value: HTTP.maxStreamsPerClient, kind: 'count' },
  { option: 'maxStreamDurationMs', value: HTTP.maxStreamDurationMs, kind: 'ms' },
  { option: 'listenIdleTimeoutMs', value: DEFAULT_LISTEN_IDLE_TIMEOUT_MS, kind: 'ms' },
  { option: 'maxStreamBacklogBytes', value: HTTP.maxStreamBacklogBytes, kind: 'bytes' },
  {
    option: 'streamBacklogWindowMs',
    value: HTTP.streamBacklogWindowMs,
    kind: 'ms',
    after: 'for ',
  },
  { option: 'sessionRetryAfterSeconds', value: HTTP.sessionRetryAfterSeconds, kind: 'seconds' },
  { option: 'headersTimeoutMs', value: CONNECTIONS.headersTimeoutMs, kind: 'ms' },
  { option: 'requestTimeoutMs', value: CONNECTIONS.requestTimeoutMs, kind: 'ms' },
  { option: 'keepAliveTimeoutMs', value: CONNECTIONS.keepAliveTimeoutMs, kind: 'ms' },
  { option: 'maxConnections', value: CONNECTIONS.maxConnections, kind: 'count' },
  {
    option: 'maxFrameBytes',
    value: WEBSOCKET_DEFAULTS.maxFrameBytes,
    kind: 'bytes',
    row: 'serveWebSocket({ maxFrameBytes })',
  },
  {
    option: 'pauseAboveBytes',
    value: WEBSOCKET_DEFAULTS.pauseAboveBytes,
    kind: 'bytes',
    after: 'pause reading above ',
  },
  {
    option: 'closeAboveBytes',
    value: WEBSOCKET_DEFAULTS.closeAboveBytes,
    kind: 'bytes',
    after: 'cut above ',
  },
  // What one session holds.
  { option: 'maxEventBytesPerStream', value: EVENTS.maxEventBytesPerStream, kind: 'bytes' },
  { option: 'maxEventBytesPerSession', value: EVENTS.maxEventBytesPerSession, kind: 'bytes' },
  { option: 'maxEventBytes', value: EVENTS.maxEventBytes, kind: 'bytes' },
  { option: 'maxEventsPerStream', value: EVENTS.maxEventsPerStream, kind: 'count' },
  { option: 'maxEventsPerSession', value: EVENTS.maxEventsPerSession, kind: 'count' },
  { option: 'maxEvents', value: EVENTS.maxEvents, kind: 'count' },
  // Arguments, results and requestState.
  { option: 'maxUsedStates', value: DEFAULT_MAX_USED_STATES, kind: 'count' },
  { option: 'maxPageBytes', value: DEFAULT_MAX_PAGE_BYTES, kind: 'bytes' },
  // Tasks.
  { option: 'maxTasksPerOwner', value: maxTasksPerOwner, kind: 'count', after: 'in Redis ' },
  { option: 'maxTaskResultBytes', value: maxTaskResultBytes, kind: 'bytes' },
  { option: 'maxTaskBytesPerOwner', value: maxTaskBytesPerOwner, kind: 'bytes' },
  { option: 'maxTaskBytes', value: maxTaskBytes, kind: 'bytes' },
  // The Events extension.
  { option: 'count', value: DEFAULT_REPLAY.count, kind: 'count', row: 'replay: { count }' },
  { option: 'bytes', value: DEFAULT_REPLAY.bytes, kind: 'bytes', row: 'replay: { bytes }' },
  { option: 'ageMs', value: DEFAULT_REPLAY.ageMs, kind: 'ms', row: 'replay: { ageMs }' },
  {
    option: 'pollEvents',
    value: DEFAULT_EVENTS_LIMITS.pollEvents,
    kind: 'count',
    row: 'events({ pollEvents })',
  },
  {
    option: 'maxStreamsPerClient',
    value: DEFAULT_EVENTS_LIMITS.maxStreamsPerClient,
    kind: 'count',
    row: 'events({ maxStreamsPerClient })',
  },
  {
    option: 'heartbeatMs',
    value: DEFAULT_EVENTS_LIMITS.heartbeatMs,
    kind: 'ms',
    row: 'events({ heartbeatMs })',
  },
  {
    option: 'maxSubscriptionsPerPrincipal',
    value: DEFAULT_WEBHOOK_LIMITS.maxSubscriptionsPerPrincipal,
    kind: 'count',
  },
  {
    option: 'maxAttempts',
    value: DEFAULT_WEBHOOK_LIMITS.maxAttempts,
    kind: 'count',
    row: 'webhooks: { maxAttempts }',
  },
  {
    option: 'maxPendingPerSubscription',
    value: DEFAULT_WEBHOOK_LIMITS.maxPendingPerSubscription,
    kind: 'count',
  },
  {
    option: 'timeoutMs',
    value: DEFAULT_WEBHOOK_LIMITS.timeoutMs,
    kind: 'ms',
    row: 'webhooks: { timeoutMs }',
  },
  {
    option: 'defaultTtlMs',
    value: DEFAULT_WEBHOOK_LIMITS.defaultTtlMs,
    kind: 'ms',
    row: 'webhooks: { maxTtlMs }',
  },
  // The gateway's proxies.
  { option: 'maxCatalogBytes', value: DEFAULT_MAX_CATALOG_BYTES, kind: 'bytes' },
  // Token verifiers.
  {
    option: 'maxConcurrentNewTokens',
    value: INTROSPECTION_PACING_DEFAULTS.maxConcurrentNewTokens,
    kind: 'count',
  },
  {
    option: 'newTokensPerSecond',
    value: INTROSPECTION_PACING_DEFAULTS.newTokensPerSecond,
    kind: 'count',
  },
  { option: 'maxAgeSeconds', value: DPOP_PROOF_DEFAULTS.maxAgeSeconds, kind: 'seconds' },
  { option: 'replayCacheEntries', value: DPOP_PROOF_DEFAULTS.replayCacheEntries, kind: 'count' },
];

describe('docs/limits.md defaults', () => {
  it.each(DEFAULTS.map((entry) => [entry.option, entry] as const))(
    'documents %s with the default the code uses',
    (option, { value, kind, after, row }) => {
      const documented = documentedDefault(option, row);
      expect(documented, `no row names ${option}`).toBeDefined();
      const found = spellings(value, kind).some((spelling) =>
        after === undefined
          ? new RegExp(`^${spelling}\\b`).test(documented!)
          : documented!.includes(`${after}${spelling}`),
      );
      expect(found, `${option}: "${documented}" does not read ${spellings(value, kind)[0]}`).toBe(
        true,
      );
    },
  );
});
