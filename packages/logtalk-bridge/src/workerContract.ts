import type { InputResponseValue, Json, JsonObject, LoggingLevel } from '@rondo/protocol';

/** One line of worker output or bridge news, tagged with the worker it came from. */
export interface PrologLogEntry {
  level: 'debug' | 'info' | 'warning' | 'error';
  workerId?: number;
  source: 'stderr' | 'stdout' | 'bridge';
  message: string;
}

/** How to start a worker: the command line and what it loads. */
export interface WorkerLaunch {
  command: string;
  args: string[];
  /** The environment of one worker, made ready for it (called once, before it starts). */
  environment(workerId: number): NodeJS.ProcessEnv;
  /** The `init` message of a worker: flavour, files, object, scratch directory. */
  init(workerId: number): JsonObject;
  maxLineBytes: number;
  /** How deeply a worker's message may nest before it counts as a protocol fault. */
  maxMessageDepth: number;
  startTimeoutMs: number;
  /** How many calls may be written to one worker before it answered them (1: one at a time). */
  maxInFlight: number;
  /** How long a worker may go on with a call its caller gave up before it is killed. */
  cancelGraceMs: number;
  /** The goals workers ran with `mcp_broadcast/1`, shared by every worker of the pool. */
  broadcasts: BroadcastLog;
  log(entry: PrologLogEntry): void;
  /** Called once a worker's process is gone, to remove what it left behind. */
  cleanup?(workerId: number): void;
  /** A worker announced a change (`mcp_notify/1`), at any time. */
  changed?(change: WorkerChange, workerId: number): void;
  /** A worker raised an occurrence of an event type (`mcp_emit/2,3`), at any time. */
  emitted?(emission: WorkerEmission, workerId: number): void;
}

/** An occurrence a worker raised: the event type, its data, and what it says of it. */
export interface WorkerEmission {
  event: string;
  data: JsonObject;
  /** The subscription arguments it is for (see `EmitOptions.match` of `@rondo/events`). */
  match?: JsonObject;
  eventId?: string;
}

/**
 * Goals that must hold in every worker (a dynamic fact behind a changing list, say), in the order
 * they were run. Each worker runs the ones it has not seen (not its own) before its next call,
 * so replacement workers catch up too.
 */
export interface BroadcastLog {
  goals: { origin: number; goal: string }[];
}

/** A change a worker announced: a list (with the provider's new description) or one resource. */
export interface WorkerChange {
  what: 'tools' | 'prompts' | 'resources' | 'resource';
  description?: Json;
  uri?: string;
}

/** The log levels of MCP, as `mcp_log/2` names them. */
export type PrologLogLevel = LoggingLevel;

/**
 * What a call may do besides answering: report progress, log, ask the client (the `Elicit`
 * closure of tool_call/4, `mcp_sample/2`, `mcp_roots/1`).
 */
export interface CallHandlers {
  progress?(value: number, total?: number, message?: string): void;
  log?(level: PrologLogLevel, data: Json, logger?: string): void;
  elicit?(message: string, schema: JsonObject): Promise<InputResponseValue>;
  /** Asks the client's model; `request` is a vocabulary sampling request body. */
  sample?(request: JsonObject): Promise<Json>;
  /** Asks the client for its roots; answers a vocabulary `roots_result`. */
  roots?(): Promise<Json>;
  /** Closes the call's response stream while it runs (`mcp_close_stream/0`). */
  closeStream?(): void;
}

/** The requests a worker may make of the client during a call; it waits for each answer. */
export type ClientQuestion = 'elicitation' | 'sampling' | 'roots';

/** The answer to a question the client could not (or will no longer) answer: Logtalk's rule. */
export function refusal(what: ClientQuestion, reason: string): Json {
  return what === 'elicitation' ? { kind: 'cancel' } : { kind: 'error', message: reason };
}
