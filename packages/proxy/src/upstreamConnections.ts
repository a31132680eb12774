import type { Client, EraChoice } from '@rondo/client';
import type { HandlerContext } from '@rondo/core';
import type { LoggingMessageNotificationParams } from '@rondo/protocol';
import type { ChangeRelay } from './changeRelay.js';
import type { LogSink } from './passThroughCalls.js';
import type { RoundCaller } from './roundRunner.js';
import type { UpstreamCall } from './upstreamCall.js';
import { actingCallers, type ActingCallers } from './actingCallers.js';
import { ANONYMOUS_CALLER, isolationKey, type IsolationLimits } from './isolation.js';
import { LegacyMirror, type MirrorLimits } from './legacyMirror.js';
import { LinkPool, type UpstreamLease } from './linkPool.js';
import { forwardAnnouncements } from './upstreamAnnouncements.js';
import { UpstreamLink, type UpstreamStatus, type ConnectionOptions } from './upstreamLink.js';
import type { UpstreamSpec } from './upstreamSpec.js';

/** How a proxy connects to its upstream: the era it speaks, and whose session a call runs in. */
export interface ConnectionsOptions
  extends IsolationLimits, MirrorLimits, Omit<ConnectionOptions, 'era' | 'startable'> {
  readonly era?: EraChoice | 'mirror';
  /** Told each change of the primary connection's state. */
  readonly onStatus?: (status: UpstreamStatus) => void;
}

/** Where a log message of one upstream connection goes (the one call running on it), if anywhere. */
export type LogRoute = (
  client: Client,
) => ((params: LoggingMessageNotificationParams) => void) | undefined;

/**
 * Every connection of one proxy to its upstream: the primary one (the catalog, completions, list
 * changes, pass-through and shared calls), with `era: 'mirror'` (the default) a legacy one for the
 * legacy callers of an upstream serving both eras (see `LegacyMirror`), and the per-caller
 * sessions of its isolation (see `Isolation`). A call borrows the one it runs on with
 * {@link lease}.
 */
export class UpstreamConnections {
  /** The primary connection. */
  readonly primary: UpstreamLink;
  private readonly mirror: LegacyMirror | undefined;
  private readonly isolated: LinkPool;
  /** For an upstream with a `callerAuthorizer`: the callers its connections act for. */
  private readonly callers: ActingCallers | undefined;

  constructor(
    name: string,
    spec: UpstreamSpec,
    private readonly options: ConnectionsOptions,
    changes: ChangeRelay,
    logRoute: LogRoute,
  ) {
    // The client advertises every input capability: a question reaches the caller of the call it
    // belongs to (per-call handlers), and these only answer questions that belong to no call.
    const refuse = (): never => {
      throw new Error('The gateway has no call this question belongs to');
    };
    const handlers = { elicitation: refuse, sampling: refuse, roots: refuse };
    const callers = actingCallers(name, spec);
    this.callers = callers;
    const startable = callers && { startable: () => callers.catalogReady };
    this.primary = new UpstreamLink(
      name,
      callers?.catalogSpec() ?? spec,
      handlers,
      {
        connected: () => changes.all(),
        wire: (client) => forwardAnnouncements(client, changes, () => logRoute(client)),
        // The operator hears the primary connection's states (see ProxyOptions.onStatus).
        ...(options.onStatus ? { status: options.onStatus } : {}),
      },
      { ...options, era: this.configuredEra(), ...startable },
    );
    // A caller's own session, or the legacy mirror, serves calls only: the catalog and its changes
    // are the primary's (so a mirror opening again says nothing to the clients).
    const callsOnly = (era: EraChoice, to: UpstreamSpec = spec): UpstreamLink =>
      new UpstreamLink(
        name,
        to,
        handlers,
        {
          connected: () => undefined,
          wire: (client) => client.on('log', (params) => logRoute(client)?.(params)),
        },
        { ...options, era },
      );
    const mirrors = !callers && (options.era === undefined || options.era === 'mirror');
    this.mirror = mirrors ? new LegacyMirror(name, callsOnly, options) : undefined;
    this.isolated = new LinkPool(
      name,
      (key) => callsOnly(this.isolatedEra(), callers?.specFor(key)),
      options,
      (key) => callers?.forget(key),
    );
  }

  /** Per-caller sessions open now. */
  get isolatedSessions(): number {
    return this.isolated.size;
  }

  /** Legacy mirror connections open now: 0 or 1. */
  get mirrorConnections(): number {
    return this.mirror?.open ?? 0;
  }

  /**
   * The connection a call of `ctx` runs on: its caller's own upstream session when the proxy
   * isolates callers, else the one of its era (see `ProxyOptions.era` `mirror`): a legacy caller's
   * call on an upstream serving both eras runs on the legacy mirror.
   */
  async lease(ctx: HandlerContext): Promise<UpstreamLease> {
    if (this.callers) return this.leaseActing(this.callers, ctx);
    const primary = await this.primary.client();
    const mode = this.options.isolation ?? (primary.era === 'legacy' ? 'principal' : 'shared');
    const key = isolationKey(mode, ctx);
    // Callers the transport cannot tell apart (the one client of a stdio gateway) are one caller.
    if (key !== undefined && key !== ANONYMOUS_CALLER) return this.isolated.lease(key);
    const revision =
      ctx.era === 'legacy' ? LegacyMirror.revisionFor(this.primary.facts) : undefined;
    if (revision === undefined || !this.mirror) return { client: primary, release: () => {} };
    return this.mirror.lease(revision);
  }

  /**
   * Notes the caller of a request (a gateway's middleware does, before each one): the first caller
   * with a verified token opens the catalog connection of an upstream acting for each caller.
   */
  see(ctx: Pick<HandlerContext, 'principal'>): void {
    if (!this.callers) return;
    this.callers.see(ctx, this.primary.status.state !== 'connected');
    // Once connected it reports every list changed: the server reads the catalog then.
    if (this.callers.catalogReady && this.primary.status.state === 'idle') {
      this.primary.start().catch(() => undefined);
    }
  }

  /** The primary connection, for a call passed through it: none when it acts for one caller. */
  get passable(): Client | undefined {
    return this.callers ? undefined : this.primary.connected;
  }

  /**
   * Whether the upstream completes arguments for every caller: never when its connections act for
   * each caller (the catalog connection's caller is not the one asking).
   */
  get completes(): boolean {
    return !this.callers && this.primary.facts?.capabilities.completions !== undefined;
  }

  /** Closes every connection. */
  async close(): Promise<void> {
    await Promise.all([this.primary.close(), this.mirror?.close(), this.isolated.close()]);
  }

  /** A call on the caller's own connection, acting for it; the catalog connection opened first. */
  private async leaseActing(callers: ActingCallers, ctx: HandlerContext): Promise<UpstreamLease> {
    const key = callers.admit(ctx, this.primary.status.state !== 'connected');
    try {
      await this.primary.start();
      return await this.isolated.lease(key);
    } catch (failure) {
      if (!this.isolated.has(key)) callers.forget(key);
      throw failure;
    }
  }

  private configuredEra(): EraChoice {
    return this.options.era === 'mirror' || this.options.era === undefined
      ? 'auto'
      : this.options.era;
  }

  /** The era a per-caller session speaks: the primary connection's, negotiated once. */
  private isolatedEra(): EraChoice {
    const facts = this.primary.facts;
    return facts?.era === 'legacy' ? (facts.protocolVersion as EraChoice) : this.configuredEra();
  }
}

/**
 * Where a log message of the connection `client` goes: to the one call running on it (from
 * `active`, the calls serving a round, or `passing`, the sinks of the calls passed through on it),
 * if exactly one is; a log message names no call, so it never goes to another caller's.
 */
export function singleCallLog(
  client: Client,
  active: ReadonlyMap<UpstreamCall, RoundCaller>,
  passing: ReadonlySet<LogSink> | undefined,
): ((params: LoggingMessageNotificationParams) => void) | undefined {
  const callers = [...active].filter(([call]) => call.upstream === client);
  if (callers.length + (passing?.size ?? 0) !== 1) return undefined;
  const caller = callers[0]?.[1];
  if (caller) return (params) => caller.log(params);
  return passing === undefined ? undefined : [...passing][0];
}
