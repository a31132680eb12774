import type { LogLevel } from '@rondo/core';
import type { LegacyRevision } from '@rondo/protocol';

/** The legacy revisions this adapter can speak (2025-03-26 is not served: its wire lacks structured content and titles). */
export type ServedLegacyRevision = Exclude<LegacyRevision, '2025-03-26'>;

/** Every revision the adapter can serve, newest first. */
export const SERVED_LEGACY_REVISIONS: readonly ServedLegacyRevision[] = [
  '2025-11-25',
  '2025-06-18',
];

/** How the legacy era behaves; every member is optional. */
export interface LegacyEraOptions {
  /**
   * The revisions offered, in any order (default: 2025-11-25 and 2025-06-18). A client asking for one
   * of them gets it; any other version is answered with the newest of them.
   */
  revisions?: readonly ServedLegacyRevision[];
  /** How long a server-to-client request (elicitation, sampling, roots) may wait for its answer (default 60 000 ms). */
  clientRequestTimeoutMs?: number;
  /**
   * The log level in force until the client sends `logging/setLevel` (default `info`); `off` sends
   * no `notifications/message` until the client chooses a level.
   */
  defaultLogLevel?: LogLevel | 'off';
  /**
   * Most resource URIs one session may subscribe to (default 1000); a `resources/subscribe`
   * past it is refused with -32602 naming the limit.
   */
  maxSubscriptions?: number;
  /**
   * Most server-to-client requests (elicitation, sampling, roots) of one session waiting for an
   * answer at once (default 100); asking past it fails the handler's `ctx.elicit` (or the round)
   * at once, before anything is sent.
   */
  maxPendingClientRequests?: number;
}

/** Options with every default filled in. */
export interface ResolvedLegacyOptions {
  revisions: readonly ServedLegacyRevision[];
  clientRequestTimeoutMs: number;
  defaultLogLevel: LogLevel | 'off';
  maxSubscriptions: number;
  maxPendingClientRequests: number;
}

/** Fills in defaults and checks the options once, when the adapter is built. */
export function resolveOptions(options: LegacyEraOptions = {}): ResolvedLegacyOptions {
  const revisions = SERVED_LEGACY_REVISIONS.filter((r) =>
    (options.revisions ?? SERVED_LEGACY_REVISIONS).includes(r),
  );
  if (revisions.length === 0)
    throw new RangeError('legacyEra: revisions must name at least one of 2025-11-25, 2025-06-18');
  const clientRequestTimeoutMs = options.clientRequestTimeoutMs ?? 60_000;
  if (!(clientRequestTimeoutMs > 0))
    throw new RangeError('legacyEra: clientRequestTimeoutMs must be positive');
  return {
    revisions,
    clientRequestTimeoutMs,
    defaultLogLevel: options.defaultLogLevel ?? 'info',
    maxSubscriptions: atLeastOne('maxSubscriptions', options.maxSubscriptions ?? 1000),
    maxPendingClientRequests: atLeastOne(
      'maxPendingClientRequests',
      options.maxPendingClientRequests ?? 100,
    ),
  };
}

function atLeastOne(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`legacyEra: ${name} must be a positive integer, got ${value}`);
  return value;
}
