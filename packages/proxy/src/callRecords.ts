import { isMcpError } from '@rondo/protocol';

/** How one call to an upstream ended, as metrics and an audit log count it. */
export type CallOutcome = 'ok' | 'tool_error' | 'input_required' | 'error';

/** One call of a round method (or one passed-through request) to an upstream, once it ended. */
export interface UpstreamCallRecord {
  /** The proxy's name (the gateway's entry key). */
  readonly upstream: string;
  /** `tools/call`, `prompts/get`, `resources/read`, or a passed-through task method. */
  readonly method: string;
  /** The tool or prompt name as the upstream knows it, or the resource URI. */
  readonly name: string;
  readonly outcome: CallOutcome;
  /** The JSON-RPC error code, for `error`. */
  readonly errorCode?: number;
  /** Its error message, for `error` (what the caller was told). */
  readonly errorMessage?: string;
  readonly durationMs: number;
  /** 1 for a call's first round; each retry bringing answers counts on. */
  readonly round: number;
  /** True when the request went upstream as it came (a modern caller at the upstream's revision). */
  readonly passedThrough: boolean;
  /** Who called, when the transport authenticated the caller. */
  readonly principal?: string;
  /** The calling client's `clientInfo` (`name version`), when it gave one. */
  readonly client?: string;
}

/** Told every call an upstream ended (see {@link UpstreamCallRecord}). */
export type CallObserver = (record: UpstreamCallRecord) => void;

/** What a record says about the call before it ends. */
export type CallFacts = Omit<
  UpstreamCallRecord,
  'outcome' | 'errorCode' | 'errorMessage' | 'durationMs'
>;

/**
 * Runs `call` and tells `observer` how it ended; the value or the error passes on unchanged. An
 * observer that throws is ignored: reporting never fails a call.
 */
export async function observed<T>(
  observer: CallObserver | undefined,
  facts: CallFacts,
  call: () => Promise<T>,
): Promise<T> {
  if (observer === undefined) return call();
  const started = performance.now();
  const report = (ending: Pick<UpstreamCallRecord, 'outcome' | 'errorCode' | 'errorMessage'>) => {
    try {
      observer({ ...facts, ...ending, durationMs: performance.now() - started });
    } catch {
      // An observer's failure is its own; the call's caller must not see it.
    }
  };
  try {
    const value = await call();
    report({ outcome: outcomeOf(value) });
    return value;
  } catch (error) {
    const errorCode = isMcpError(error) ? error.code : -32603;
    const errorMessage = error instanceof Error ? error.message : String(error);
    report({ outcome: 'error', errorCode, errorMessage });
    throw error;
  }
}

/**
 * What a result came to: a round asking for input, a tool's own error (`isError` on the wire, an
 * `error` item in the vocabulary), or a result.
 */
export function outcomeOf(value: unknown): CallOutcome {
  if (typeof value !== 'object' || value === null) return 'ok';
  const result = value as Record<string, unknown>;
  if (result.kind === 'input_required' || result.resultType === 'input_required')
    return 'input_required';
  if (result.isError === true) return 'tool_error';
  const inner = result.kind === 'complete' ? (result.result as Record<string, unknown>) : result;
  const items = inner?.items;
  if (Array.isArray(items) && items.some((item) => (item as { kind?: unknown }).kind === 'error'))
    return 'tool_error';
  return 'ok';
}

/** What the record of a translated call (one round of it) says before it ends. */
export function callFacts(
  upstream: string,
  method: string,
  name: string,
  ctx: {
    readonly round: number;
    readonly principal?: { readonly id: string } | undefined;
    readonly clientInfo?: { readonly name: string; readonly version: string } | undefined;
  },
): CallFacts {
  return {
    upstream,
    method,
    name,
    round: ctx.round,
    passedThrough: false,
    ...callerFacts(ctx.principal?.id, ctx.clientInfo),
  };
}

/** Who a call is for: its principal's id and its client's `name version`, those known. */
export function callerFacts(
  principal: string | undefined,
  clientInfo: unknown,
): { principal?: string; client?: string } {
  const info = clientInfo as { name?: unknown; version?: unknown } | undefined;
  const client =
    typeof info?.name === 'string'
      ? `${info.name} ${typeof info.version === 'string' ? info.version : ''}`.trim()
      : undefined;
  return {
    ...(principal === undefined ? {} : { principal }),
    ...(client === undefined ? {} : { client }),
  };
}

/**
 * What the record of a passed-through request says before it ends: the tool (or the task) it
 * names, and round 2 for a retry bringing answers (the upstream counts the rounds after it).
 */
export function passThroughFacts(
  upstream: string,
  method: string,
  params: Readonly<Record<string, unknown>>,
  caller: { readonly principal?: string; readonly client?: string } = {},
): CallFacts {
  const named = typeof params.name === 'string' ? params.name : params.taskId;
  const name = typeof named === 'string' ? named : '';
  const round = params.requestState === undefined ? 1 : 2;
  return { upstream, method, name, round, passedThrough: true, ...caller };
}
