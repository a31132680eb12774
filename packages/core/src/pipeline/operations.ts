import {
  type Json,
  type JsonObject,
  type PromptResult,
  type ResourceResult,
  type RoundResult,
  type ToolResult,
} from '@rondo/protocol';
import {
  promptResultToWire,
  resourceResultToWire,
  toolResultToWire,
} from '@rondo/protocol/internal';
import { normaliseRound } from '../rounds.js';
import type { ServerRuntime } from '../runtime.js';
import type { RequestCall } from './call.js';
import type { WireResult } from './pipeline.js';

/** The methods whose handlers may be round hooks, asking the client for input. */
export type RoundMethodName = 'tools/call' | 'prompts/get' | 'resources/read';

/**
 * One of the three round methods, era-neutral: what identifies a request (what a sealed state is
 * bound to), how one round runs, and the wire form of a complete result. `invoke` resolves
 * `undefined` when the target does not exist and the era has its own error for that.
 */
export interface RoundOperation<R, I extends Json> {
  readonly method: RoundMethodName;
  invoke(
    runtime: ServerRuntime,
    call: RequestCall,
    identity: I,
  ): Promise<RoundResult<R> | undefined>;
  toWire(result: R): WireResult;
}

/** What identifies a `tools/call` or `prompts/get`. */
export interface NamedCall extends JsonObject {
  name: string;
  arguments: JsonObject;
}

/** What identifies a `resources/read`. */
export interface ResourceCall extends JsonObject {
  uri: string;
}

/** `tools/call`: unknown tool -32602; bad arguments and handler failures an `isError` result. */
export const CALL_TOOL: RoundOperation<ToolResult, NamedCall> = {
  method: 'tools/call',
  invoke: (runtime, call, { name, arguments: args }) =>
    intercepted(call, () => runtime.callTool(name, args, call)),
  toWire: (result) => toolResultToWire(result),
};

/** `prompts/get`: unknown prompt or a missing required argument -32602. */
export const GET_PROMPT: RoundOperation<PromptResult, NamedCall> = {
  method: 'prompts/get',
  invoke: (runtime, call, { name, arguments: args }) =>
    intercepted(call, () => runtime.getPrompt(name, args as Record<string, string>, call)),
  toWire: (result) => promptResultToWire(result),
};

/** `resources/read`: `undefined` when no provider has the resource. */
export const READ_RESOURCE: RoundOperation<ResourceResult, ResourceCall> = {
  method: 'resources/read',
  invoke: (runtime, call, { uri }) => intercepted(call, () => runtime.readResource(uri, call)),
  toWire: (result) => resourceResultToWire(result),
};

/**
 * One round inside the middleware: each round of a multi-round request is a call middleware
 * sees (with its round number), and a plain result middleware returns counts as complete.
 */
async function intercepted<R extends { kind: string }>(
  call: RequestCall,
  round: () => Promise<RoundResult<R> | undefined>,
): Promise<RoundResult<R> | undefined> {
  if (call.middleware.length === 0) return round();
  const outcome = await call.intercept(round);
  return outcome === undefined ? undefined : normaliseRound(outcome);
}

/** The identity of a named call from its validated params (arguments `{}` when absent). */
export function namedCall(params: {
  name: string;
  arguments?: Record<string, unknown>;
}): NamedCall {
  return { name: params.name, arguments: (params.arguments ?? {}) as JsonObject };
}
