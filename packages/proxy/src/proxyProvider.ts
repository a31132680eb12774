import type { AnswerReceiver, Client, EraChoice, ProgressUpdate } from '@rondo/client';
import type {
  Cancellation,
  Arguments,
  SessionRelay,
  CompletionRequest,
  CompletionResult,
  HandlerContext,
  McpCall,
  PromptDefinition,
  PromptOutcome,
  Provider,
  ProviderCapabilities,
  ProviderChange,
  ResourceDefinition,
  ResourceOutcome,
  ResourceTemplateDefinition,
  TaskDeclaration,
  ToolDefinition,
  ToolOutcome,
} from '@rondo/core';
import { DEFAULT_MAX_CATALOG_BYTES, type CatalogLimits } from './catalogBudget.js';
import type { CatalogClaims } from './catalogClaims.js';
import { ShortLivedMap } from '@rondo/core/internal';
import { ChangeRelay } from './changeRelay.js';
import { Gate } from './gate.js';
import { redactForOperator } from './redaction.js';
import type { NameRules } from './names.js';
import { LegacyTaskTools } from './legacyTasks.js';
import { UpstreamCatalog } from './upstreamCatalog.js';
import {
  PassThroughCalls,
  announcesTasks,
  passableClient,
  type LogSink,
} from './passThroughCalls.js';
import { completeUpstream, completionRef } from './upstreamCompletion.js';
import { RelayedRounds, type RelayLimits } from './relayedRounds.js';
import { ResourceOwnership, isNotFound } from './resourceOwnership.js';
import { UpstreamSkills, type ProxySkills } from './upstreamSkills.js';
import { UpstreamEvents, type ProxyEvents } from './upstreamEvents.js';
import { resumeRound, runRound, type RoundCaller, type RoundServices } from './roundRunner.js';
import { SuspendedCalls, type SuspensionLimits } from './suspendedCalls.js';
import type { IsolationLimits } from './isolation.js';
import type { MirrorLimits } from './legacyMirror.js';
import { UpstreamConnections, singleCallLog } from './upstreamConnections.js';
import type { UpstreamCall } from './upstreamCall.js';
import { callFacts, observed, type CallObserver } from './callRecords.js';
import { UpstreamLists } from './upstreamLists.js';
import type { UpstreamLink } from './upstreamLink.js';
import { type ConnectionOptions, type UpstreamStatus } from './upstreamLink.js';
import { checkUpstreamSpec, type UpstreamSpec } from './upstreamSpec.js';
import { promptResultFromWire, resourceResultFromWire, toolResultFromWire } from './wireResults.js';

/** How a proxy shows and reaches its upstream. */
export interface ProxyOptions
  extends
    NameRules,
    SuspensionLimits,
    RelayLimits,
    CatalogLimits,
    IsolationLimits,
    MirrorLimits,
    Omit<ConnectionOptions, 'era'> {
  /**
   * The era spoken upstream: `mirror` (default): negotiated (`server/discover`, else
   * `initialize`), plus, when the upstream serves both eras, a second connection in its newest
   * legacy revision for legacy callers, made at the first legacy call and closed after
   * `mirrorIdleMs` without one (see `LegacyMirror`); each caller then reaches the upstream
   * in its own era, which serves it exactly as it would directly (its legacy-only requests, its
   * input request keys and per-request capabilities). `auto`: the negotiated connection alone,
   * legacy callers translated onto it; a revision pins it.
   */
  readonly era?: EraChoice | 'mirror';
  /** The upstream's name in messages and errors (default: the namespace, else `upstream`). */
  readonly name?: string;
  /** Deadline for the upstream's next move in a call: its answer or its next question (ms). Default 60,000; 0 for none. */
  readonly timeoutMs?: number;
  /** Calls running at once on the upstream. Default 16. */
  readonly maxConcurrent?: number;
  /** Calls waiting for a slot at most; one more is refused. Default 256. */
  readonly maxQueued?: number;
  /**
   * The channel to the other processes serving the same endpoint (`SharedState.relay`, from
   * `@rondo/redis`), whose proxies of the same upstream name share it. A retry naming a suspended
   * call another process holds is relayed to that process, which runs the round with its upstream
   * connection and sends the outcome back. Without it a suspended call lives in one process only.
   */
  readonly relay?: SessionRelay;
  /**
   * The names and URIs the other entries of one gateway hold: an item an earlier entry offers
   * too is left out of this one's lists, with a warning naming both (see {@link CatalogClaims}).
   */
  readonly claims?: CatalogClaims;
  /** Told what the proxy left out of the upstream's catalog and why (a schema that does not compile). */
  readonly onWarning?: (message: string) => void;
  /**
   * Whether a list read waits for the upstream's first connection (default true, so a server
   * started with the proxy lists its tools at once). False: a list read while the upstream is not
   * connected answers what was last read (nothing at first) without waiting, and the catalog is
   * read again when it connects, which clients learn through `list_changed`: a gateway serves at
   * once, however slow an upstream is to start.
   */
  readonly awaitConnection?: boolean;
  /** Told each change of the upstream connection's state (see {@link UpstreamStatus}). */
  readonly onStatus?: (status: UpstreamStatus) => void;
  /** Told how each call to the upstream ended (for metrics and an audit log). */
  readonly onCall?: CallObserver;
}

/**
 * A provider whose catalog is an upstream MCP server, reached through `@rondo/client` in either
 * era: its tools, prompts, resources and completions, named by {@link NameRules}, with progress,
 * log messages, cancellation and list changes forwarded, and the upstream's questions to its
 * client (elicitation, sampling, roots) turned into rounds: `input_required` for a modern caller,
 * server-to-client requests for a legacy one.
 */
export class ProxyProvider implements Provider {
  readonly name: string;
  private readonly link: UpstreamLink;
  private readonly catalog: UpstreamCatalog;
  /** Every connection to the upstream: the catalog's, the legacy mirror, the callers' own. */
  readonly connections: UpstreamConnections;
  private readonly changes = new ChangeRelay();
  private readonly services: RoundServices;
  private readonly legacyTasks: LegacyTaskTools;
  private readonly active = new ShortLivedMap<UpstreamCall, RoundCaller>();
  private readonly relayed: RelayedRounds | undefined;
  private readonly passing: PassThroughCalls;
  /** The upstream's lists as last read (`sizes()` counts them). */
  readonly lists: UpstreamLists;
  /** The upstream's skills, when it serves the Skills extension (a gateway relays them). */
  readonly skills: ProxySkills;
  /** The upstream's event types, when it serves the Events extension (a gateway relays them). */
  readonly events: ProxyEvents;

  constructor(
    private readonly spec: UpstreamSpec,
    private readonly options: ProxyOptions = {},
  ) {
    checkUpstreamSpec(spec);
    this.name = options.name ?? (options.namespace || 'upstream');
    this.connections = new UpstreamConnections(this.name, spec, options, this.changes, (client) =>
      singleCallLog(
        client,
        this.active,
        client === this.link.connected ? this.passing.sinks : undefined,
      ),
    );
    this.link = this.connections.primary;
    this.lists = new UpstreamLists(this.link, options.awaitConnection ?? true, this.warn);
    const timeoutMs = options.timeoutMs ?? 60_000;
    this.relayed =
      options.relay &&
      new RelayedRounds(options.relay, options, {
        upstreamName: this.name,
        timeoutMs,
        serve: (round, caller) => resumeRound(this.services, round.method, round.call, caller),
        report: (message) => this.warn(`relay: ${message}`),
      });
    this.services = {
      upstreamName: this.name,
      lease: (ctx) => this.connections.lease(ctx),
      gate: new Gate(this.name, options.maxConcurrent ?? 16, options.maxQueued ?? 256),
      suspended: new SuspendedCalls(this.name, options),
      timeoutMs,
      active: this.active,
      ...(this.relayed ? { relay: this.relayed } : {}),
    };
    this.passing = new PassThroughCalls(this.services, options.onCall);
    options.claims?.enrol(this.name, (list) => this.changes.emit({ kind: list }));
    this.legacyTasks = new LegacyTaskTools(this.services);
    const ownership = new ResourceOwnership();
    const skills = new UpstreamSkills({
      upstreamName: this.name,
      link: this.link,
      gate: this.services.gate,
      budget: options.maxCatalogBytes ?? DEFAULT_MAX_CATALOG_BYTES,
      ownership,
      warn: this.warn,
    });
    this.catalog = new UpstreamCatalog(
      this.name,
      this.lists,
      options,
      this.legacyTasks,
      this.warn,
      { ownership, skills },
    );
    this.skills = skills;
    this.events = new UpstreamEvents(this.services, this.connections, options, this.warn);
  }

  /** The connection to the upstream (its state, what it said about itself). */
  get upstream(): UpstreamLink {
    return this.link;
  }

  /** Calls running upstream or waiting for their client's answers now (a reload drains them). */
  get callsInFlight(): number {
    return this.services.gate.inUse + this.services.suspended.size;
  }

  /** Calls waiting for their client's answers now. */
  get suspendedCalls(): number {
    return this.services.suspended.size;
  }

  /** Per-caller upstream sessions open now (see {@link ProxyOptions.isolation}). */
  get isolatedSessions(): number {
    return this.connections.isolatedSessions;
  }

  /** Legacy mirror connections open now, 0 or 1 (see {@link ProxyOptions.era} `mirror`). */
  get mirrorConnections(): number {
    return this.connections.mirrorConnections;
  }

  /** Rounds relayed now: awaited from the processes holding their calls, or run here for others. */
  get relayedRounds(): number {
    return (this.relayed?.awaiting ?? 0) + (this.relayed?.hosting ?? 0);
  }

  capabilities(): ProviderCapabilities {
    return {
      listChanged: true,
      subscribe: true,
      completions: this.connections.completes,
      ...(this.passesTasks ? { tasks: true } : {}),
    };
  }

  /** True when a passed-through call may become a task of the upstream's (it announces tasks). */
  get passesTasks(): boolean {
    return announcesTasks(this.link.facts);
  }

  tools(): Promise<ToolDefinition[]> {
    return this.catalog.tools();
  }

  /**
   * A legacy upstream tool's declared task support, as the gateway's (a modern caller may run it
   * as a task of the gateway's server); a modern upstream decides per call (see `withPassThrough`).
   */
  taskSupport(name: string): TaskDeclaration | undefined {
    return this.legacyTasks.declaration(this.catalog.toolNames.upstream(name) ?? name);
  }

  callTool(name: string, args: Arguments, ctx: HandlerContext): Promise<ToolOutcome> {
    const upstream = this.catalog.toolNames.upstream(name) ?? name;
    const params = { name: upstream, arguments: args };
    const services = this.legacyTasks.servicesFor(upstream);
    return observed(this.options.onCall, callFacts(this.name, 'tools/call', upstream, ctx), () =>
      runRound(services, 'tools/call', params, ctx, toolResultFromWire),
    );
  }

  /** The connection a modern request of `revision` passes through on (see `passableClient`). */
  passThroughClient(revision: unknown): Client | undefined {
    return passableClient(this.connections.passable, revision);
  }

  /** The upstream's name for the tool this provider lists as `name`. */
  upstreamToolName(name: string): string {
    return this.catalog.toolNames.upstream(name) ?? name;
  }

  /**
   * Passes a modern caller's `tools/call` or task request through on `client` (from
   * {@link passThroughClient}), as `PassThroughCalls.callTo` does, and gives the upstream's answer
   * to `receiver`; log messages reach `log` while it is the only call running. `caller` says who
   * it is for, in the call's record (`onCall`).
   */
  passThrough(
    client: Client,
    method: string,
    params: Record<string, unknown>,
    cancellation: Cancellation,
    onProgress: ((update: ProgressUpdate) => void) | undefined,
    log: LogSink,
    caller: { readonly principal?: string; readonly client?: string },
    receiver: AnswerReceiver,
  ): void {
    this.passing.callTo(client, method, params, cancellation, onProgress, log, caller, receiver);
  }

  prompts(): Promise<PromptDefinition[]> {
    return this.catalog.prompts();
  }

  getPrompt(
    name: string,
    args: Record<string, string>,
    ctx: HandlerContext,
  ): Promise<PromptOutcome> {
    const params = { name: this.catalog.promptNames.upstream(name) ?? name, arguments: args };
    return observed(
      this.options.onCall,
      callFacts(this.name, 'prompts/get', params.name, ctx),
      () => runRound(this.services, 'prompts/get', params, ctx, promptResultFromWire),
    );
  }

  resources(): Promise<ResourceDefinition[]> {
    return this.catalog.resources();
  }

  resourceTemplates(): Promise<ResourceTemplateDefinition[]> {
    return this.catalog.resourceTemplates();
  }

  /**
   * Reads a resource the upstream owns (it listed the URI, or one of its templates matches it);
   * any other URI is not sent. An upstream that answers a templated URI with not-found (either
   * code) does not have it: another entry's template may.
   */
  async readResource(uri: string, ctx: HandlerContext): Promise<ResourceOutcome | undefined> {
    if (!this.catalog.ownership.owns(uri)) return undefined;
    try {
      return await observed(
        this.options.onCall,
        callFacts(this.name, 'resources/read', uri, ctx),
        () => runRound(this.services, 'resources/read', { uri }, ctx, resourceResultFromWire),
      );
    } catch (error) {
      if (isNotFound(error) && !this.catalog.ownership.lists(uri)) return undefined;
      throw error;
    }
  }

  /** Completes at the upstream, taking a slot of its concurrency limit like a call. */
  async complete(
    request: CompletionRequest,
    call?: McpCall,
  ): Promise<CompletionResult | undefined> {
    const upstreamRef = completionRef(
      request.ref,
      this.catalog.promptNames,
      this.catalog.ownership.templateUris,
    );
    if (upstreamRef === undefined) return undefined;
    return completeUpstream(this.name, this.link, this.services.gate, upstreamRef, request, call);
  }

  onChange(listener: (change: ProviderChange) => void): () => void {
    return this.changes.on(listener);
  }

  async close(): Promise<void> {
    this.closing = true;
    this.relayed?.close('The gateway is closing');
    this.services.suspended.clear('The gateway is closing');
    this.changes.close();
    await this.connections.close();
    if ('transport' in this.spec) await this.spec.close?.();
  }

  /** Set by close(): what the shutdown cuts short (a list read, the relay) is not news then. */
  private closing = false;

  private readonly warn = (message: string): void => {
    if (this.closing) return;
    this.options.onWarning?.(`upstream "${this.name}": ${redactForOperator(message)}`);
  };
}

/** A provider for the upstream `spec` (see {@link ProxyProvider}). */
export function proxy(spec: UpstreamSpec, options: ProxyOptions = {}): ProxyProvider {
  return new ProxyProvider(spec, options);
}
