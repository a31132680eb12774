import { rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseVocabulary, vocabularySchemas, type Json, type JsonObject } from '@rondo/protocol';
import type {
  Arguments,
  CompletionRequest,
  CompletionResult,
  HandlerContext,
  PromptOutcome,
  Provider,
  ProviderCapabilities,
  ResourceOutcome,
  ToolOutcome,
} from '@rondo/core';
import { z } from 'zod';
import { contextOf, handlersOf } from './callContext.js';
import { checkedDescription, providerProblems } from './check.js';
import { reportedCall } from './diagnostics.js';
import { PrologConfigurationError, type ProviderProblem } from './errors.js';
import { missingFileProblem, planLaunch, type Flavour } from './launch.js';
import { logtalkUserDirectory } from './logtalkHome.js';
import { completionAnswer, type ProviderDescription } from './messages.js';
import { listsOf, withoutUndefined } from './descriptionLists.js';
import { WorkerPool } from './pool.js';
import { PoolSlot } from './poolSlot.js';
import { reloader } from './reload.js';
import { cachePolicyOf } from './cachePolicies.js';
import { ChangeRelay } from './changeRelay.js';
import { prologSkill, type PrologSkill } from './skills.js';
import { EmissionRelay, type EmissionListener } from './emissionRelay.js';
import type { PrologEventType } from './prologEvents.js';
import { withPrologStrings } from './prologTerm.js';
import { toolOutcomeOf } from './toolResultCheck.js';
import { providerExtensions, withContentUi } from './ui.js';
import type { CallHandlers, PrologLogEntry, WorkerLaunch } from './workerContract.js';

/** Options of {@link createPrologProvider}. */
export interface PrologProviderOptions {
  /** The Prolog (`.pl`) or Logtalk (`.lgt`) files to load in every worker. */
  files: string[];
  /** The provider module or object; by default the one found in the files. */
  object?: string;
  /** The provider's name in logs and errors; by default `prolog:<module>`, or `logtalk:<object>` for a Logtalk object. */
  name?: string;
  /** Number of worker processes; default `os.availableParallelism()`. */
  workers?: number;
  /** Deadline of one call in milliseconds (time spent waiting for the client excluded); default 30000. */
  timeoutMs?: number;
  /** The `swipl` executable; default `swipl`. */
  swipl?: string;
  /**
   * A Logtalk 3 installation, needed for `.lgt` files; default `process.env.LOGTALKHOME`, else
   * the first of `WELL_KNOWN_LOGTALK_HOMES` that holds one.
   */
  logtalkHome?: string;
  /** Receives worker stderr/stdout lines and bridge events; default: written to `process.stderr`. */
  onLog?: (entry: PrologLogEntry) => void;
  /** Longest protocol line accepted from a worker, in bytes; default 16 MiB. */
  maxMessageBytes?: number;
  /**
   * How deeply a worker's message may nest (objects and arrays); default 1000. A deeper result
   * fails its call (a tool error) and its worker is replaced, as an overlong line does.
   */
  maxMessageDepth?: number;
  /**
   * How many calls may wait for a free worker; default 1000. One more fails at once with a
   * `PrologBusyError` (a tool error; -32603 for a prompt or a resource).
   */
  maxQueue?: number;
  /**
   * How many calls one worker may hold at once: the one it runs and the ones written to it
   * ahead, which it starts as soon as the previous one answers (no round trip between them);
   * default 32, 1 for one call at a time. A call waits behind the ones ahead of it on its worker
   * (only while the running call is a short one: see `docs/limits.md`). More calls in flight
   * mean fewer, larger writes both ways, which is most of a small call's cost under load.
   */
  maxCallsPerWorker?: number;
  /**
   * How long to wait before restarting a worker that died before it answered a call, or whose
   * start failed; default 100 ms. Each further such failure in a row doubles the wait, up to
   * `maxRestartDelayMs`. A worker that answered a call is replaced at once.
   */
  restartDelayMs?: number;
  /** The longest wait between restarts of failing workers; default 10000 ms. */
  maxRestartDelayMs?: number;
  /** How long a worker may take to start and load the files; default 60000 ms. */
  startTimeoutMs?: number;
  /** Grace period between SIGTERM and SIGKILL on close; default 2000 ms. */
  shutdownGraceMs?: number;
  /**
   * How long a worker may go on with a call whose caller gave up (its signal aborted) before it
   * is killed and replaced; default 2000 ms. The caller gets its cancellation at once either way.
   */
  cancelGraceMs?: number;
  /**
   * Offer list-changed notifications even when the provider does not declare `list_changed`:
   * for a host that reloads it (`rondo-logtalk --watch`); default false.
   */
  listChanged?: boolean;
  /**
   * Start even when the provider has problems (a descriptor naming a missing predicate, an
   * unknown mode type, a schema that is not JSON Schema, a malformed resource template), so that
   * `problems()` can report them; such a provider must not be served. Default false: the
   * problems are thrown as one `PrologProviderError`. A descriptor of the wrong shape is thrown
   * either way, since no description can be read.
   */
  inspectOnly?: boolean;
}

/** A {@link Provider} served by a pool of Prolog workers. */
export interface PrologProvider extends Provider {
  /** `plain` (SWI-Prolog modules) or `logtalk` (objects). */
  readonly flavour: Flavour;
  /** The provider's `capabilities/1` list (e.g. `elicitation`, `prompts`). */
  readonly declaredCapabilities: readonly string[];
  /**
   * The skills `skills/1` declares (the Skills extension), as read at start: each defined in
   * Prolog, or a directory of skills (an absolute path). Serve them with `@rondo/skills`.
   */
  readonly skills: readonly PrologSkill[];
  /**
   * The event types `events/1` declares (the Events extension), as read at start. Serve them
   * with `prologEvents(provider)`.
   */
  readonly events: readonly PrologEventType[];
  /**
   * Hears the occurrences workers raise with `mcp_emit/2,3` (one listener; `prologEvents` is
   * it). Without one, or when it rejects, an occurrence is dropped with a warning.
   */
  onEmit(listener: EmissionListener): () => void;
  /** The ids of the workers now running. */
  workerIds(): number[];
  /**
   * Loads the files again in new workers and serves from them: calls in flight finish on the old
   * workers, which then close; every list is announced as changed. A load error leaves the old
   * workers serving and is thrown. Reloads run one at a time.
   */
  reload(): Promise<void>;
  /**
   * What is wrong with the provider, without serving it (`rondo-logtalk check`): descriptors
   * naming missing predicates, modes that do not parse, schemas that are not JSON Schema, bad
   * resource templates; each with the file and line when known.
   */
  problems(): Promise<ProviderProblem[]>;
  close(): Promise<void>;
}

const promptOutcome = z.union([vocabularySchemas.promptRound, vocabularySchemas.promptResult]);
const resourceOutcome = z.union([
  vocabularySchemas.resourceRound,
  vocabularySchemas.resourceResult,
]);

/** The default of `maxCallsPerWorker`. */
const DEFAULT_CALLS_PER_WORKER = 32;

/**
 * Starts the workers, loads the files in each, reads the provider's lists once and returns a
 * {@link PrologProvider}. Throws a `PrologLoadError` (file, line, message) when a file fails to
 * load, a `PrologProviderError` (one `file:line: message` per problem) when the loaded provider
 * has problems (see `problems()`), and a `PrologConfigurationError` for bad options (a file
 * that does not exist).
 */
export async function createPrologProvider(
  options: PrologProviderOptions,
): Promise<PrologProvider> {
  const missing = missingFileProblem(options.files);
  if (missing) throw new PrologConfigurationError(missing);
  const plan = planLaunch(options.files, options.swipl ?? 'swipl', options.logtalkHome);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const log = options.onLog ?? logToStderr;
  const warn = (message: string) => log({ level: 'warning', source: 'bridge', message });
  const changes = new ChangeRelay(warn);
  const emissions = new EmissionRelay(warn);
  const launch: WorkerLaunch = {
    command: plan.command,
    args: plan.args,
    environment: (workerId) => plan.environment(String(workerId)),
    init: (workerId) => ({
      flavour: plan.flavour,
      files: plan.files,
      object: options.object ?? null,
      scratch: plan.scratch(String(workerId)),
    }),
    maxLineBytes: options.maxMessageBytes ?? 16 * 1024 * 1024,
    maxMessageDepth: options.maxMessageDepth ?? 1000,
    startTimeoutMs: options.startTimeoutMs ?? 60_000,
    cancelGraceMs: options.cancelGraceMs ?? 2000,
    maxInFlight: Math.max(1, Math.floor(options.maxCallsPerWorker ?? DEFAULT_CALLS_PER_WORKER)),
    broadcasts: { goals: [] },
    log,
    cleanup: (workerId) => {
      if (plan.flavour === 'logtalk')
        rmSync(logtalkUserDirectory(String(workerId)), { recursive: true, force: true });
    },
    changed: (change, workerId) => changes.announce(change, workerId),
    emitted: (emission, workerId) => emissions.emitted(emission, workerId),
  };
  // Each generation of workers (one per reload) is a pool of its own, with its own broadcasts.
  const startGeneration = (generation: number) =>
    startDescribedPool({ ...launch, broadcasts: { goals: [] } }, options, timeoutMs, {
      firstId: generation * GENERATION_IDS + 1,
      firstFile: plan.files[0]!,
    });
  const first = await startGeneration(0);
  return buildProvider(first.description, new PoolSlot(first.pool), timeoutMs, changes, {
    ...options,
    emissions,
    reload: startGeneration,
  });
}

/** Worker ids a generation may use: a pool of the next one starts past them. */
const GENERATION_IDS = 100_000;

/** Starts a pool and reads its description; a load error (or a bad description) closes it. */
async function startDescribedPool(
  launch: WorkerLaunch,
  options: PrologProviderOptions,
  timeoutMs: number,
  at: { firstId: number; firstFile: string },
): Promise<{ pool: WorkerPool; description: ProviderDescription }> {
  const pool = new WorkerPool(launch, {
    size: options.workers ?? availableParallelism(),
    graceMs: options.shutdownGraceMs ?? 2000,
    maxQueue: options.maxQueue ?? 1000,
    restartDelayMs: options.restartDelayMs ?? 100,
    maxRestartDelayMs: options.maxRestartDelayMs ?? 10_000,
    firstId: at.firstId,
  });
  await pool.start();
  try {
    const call = (method: string, params: JsonObject) =>
      pool.run(timeoutMs, (w) => w.call(method, params, {}, timeoutMs));
    const description = await checkedDescription(call, options.inspectOnly === true, at.firstFile);
    return { pool, description };
  } catch (error) {
    await pool.close();
    throw error;
  }
}

interface BuildOptions extends PrologProviderOptions {
  emissions: EmissionRelay;
  reload: (generation: number) => Promise<{ pool: WorkerPool; description: ProviderDescription }>;
}

function buildProvider(
  first: ProviderDescription,
  slot: PoolSlot,
  timeoutMs: number,
  changes: ChangeRelay,
  options: BuildOptions,
): PrologProvider {
  let lists = listsOf(first);
  changes.onDescription = (d) => (lists = listsOf(d));
  const providerName =
    options.name ?? `${first.flavour === 'logtalk' ? 'logtalk' : 'prolog'}:${first.name}`;
  const call = workerCaller(slot, timeoutMs, providerName);
  const reload = reloader(slot, changes, options.reload);
  const provider: PrologProvider = {
    name: providerName,
    flavour: first.flavour,
    declaredCapabilities: first.capabilities,
    skills: first.skills.map(prologSkill),
    events: first.events,
    onEmit: (listener) => options.emissions.listen(listener),
    capabilities: () =>
      capabilitiesOf(lists.description.capabilities, options.listChanged === true),
    tools: () => lists.tools,
    taskSupport: (tool) => lists.tasks.get(tool),
    callScopes: (kind, key) => (kind === 'tool' ? lists.scopes.get(key) : undefined),
    prompts: () => lists.prompts,
    resources: () => lists.resources,
    resourceTemplates: () => lists.templates,
    async callTool(tool: string, args: Arguments, ctx: HandlerContext): Promise<ToolOutcome> {
      const value = await call(
        'tool',
        {
          name: tool,
          arguments: withPrologStrings(args, lists.strings.get(tool)),
          context: contextOf(ctx),
        },
        ctx,
      );
      return toolOutcomeOf(value);
    },
    async getPrompt(
      prompt: string,
      args: Record<string, string>,
      ctx: HandlerContext,
    ): Promise<PromptOutcome> {
      const value = await call(
        'prompt',
        { name: prompt, arguments: args, context: contextOf(ctx) },
        ctx,
      );
      return parseVocabulary<PromptOutcome>(promptOutcome, value);
    },
    async readResource(uri: string, ctx: HandlerContext): Promise<ResourceOutcome | undefined> {
      const known = lists.known.has(uri);
      const value = await call('resource', { uri, known, context: contextOf(ctx) }, ctx);
      if (value === null) return undefined;
      return withContentUi(parseVocabulary<ResourceOutcome>(resourceOutcome, value), lists.ui);
    },
    cachePolicy: (method, key) => cachePolicyOf(lists.description, method, key),
    onChange: (listener) => changes.listen(listener),
    workerIds: () => slot.current.running.map((w) => w.id),
    problems: () => providerProblems((m, p) => call(m, p, undefined), lists.description),
    reload,
    close: async () => {
      await reload.settled();
      await slot.current.close();
    },
  };
  if (first.completion) provider.complete = completerOf(call);
  return provider;
}

/** Completions asked of the workers, when the provider declares them: `null` means none. */
function completerOf(
  call: ReturnType<typeof workerCaller>,
): (request: CompletionRequest) => Promise<CompletionResult | undefined> {
  return async (request) => {
    const params = {
      ...request,
      context: request.context?.arguments ?? {},
    } as unknown as JsonObject;
    const value = await call('complete', params, undefined);
    return value === null
      ? undefined
      : withoutUndefined<CompletionResult>(completionAnswer.parse(value));
  };
}

/**
 * What `capabilities/1` (`declared`) makes the server announce: list and resource changes, and the
 * extensions its items need (`ui`). `listChanged` offers list changes whatever it declares.
 */
function capabilitiesOf(declared: readonly string[], listChanged: boolean): ProviderCapabilities {
  return {
    listChanged: listChanged || declared.includes('list_changed'),
    subscribe: declared.includes('subscribe'),
    extensions: providerExtensions(declared),
  };
}

/** Runs one call on a free worker of the pool, reported on the bridge's tracing channel. */
function workerCaller(
  pool: PoolSlot,
  timeoutMs: number,
  provider: string,
): (method: string, params: JsonObject, ctx: HandlerContext | undefined) => Promise<Json> {
  return (method, params, ctx) => {
    const cancel = ctx?.cancellation;
    const handlers = ctx ? handlersOf(ctx) : NO_HANDLERS;
    return pool.run(
      timeoutMs,
      (worker) =>
        reportedCall(
          () => ({ method, target: targetOf(params), workerId: worker.id, provider }),
          () => worker.call(method, params, handlers, timeoutMs, cancel),
        ),
      cancel,
    );
  };
}

/** The handlers of a call made for no request (a check): it cannot ask the client. */
const NO_HANDLERS: CallHandlers = {};

/** The tool or prompt name, or the resource URI, of a worker call's params. */
function targetOf(params: JsonObject): string | undefined {
  const target = params.name ?? params.uri;
  return typeof target === 'string' ? target : undefined;
}

function logToStderr(entry: PrologLogEntry): void {
  const tag = entry.workerId === undefined ? 'prolog' : `prolog#${entry.workerId}`;
  process.stderr.write(`[${tag} ${entry.source}] ${entry.message}\n`);
}
