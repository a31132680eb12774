import type { HandlerContext } from '@rondo/core';
import {
  vocabularySchemas,
  type InputResponseValue,
  type Json,
  type JsonObject,
} from '@rondo/protocol';
import type { CallHandlers, PrologLogLevel } from './workerContract.js';

/** What the shim needs of a request's context; the closures stay on this side. */
export function contextOf(ctx: HandlerContext): JsonObject {
  return {
    elicit: ctx.era === 'legacy' && ctx.clientCapabilities.elicitation !== undefined,
    round: ctx.round,
    clientCapabilities: ctx.clientCapabilities,
    inputResponses: Object.entries(ctx.inputResponses).map(([key, value]) => ({
      key,
      value: value as unknown as Json,
    })),
    state: ctx.requestState ?? null,
  };
}

/**
 * The handlers a worker call may use, bound to the request's context: one object whose methods
 * read the context when the worker asks, rather than six closures made for every call (most
 * calls use none of them).
 */
export function handlersOf(ctx: HandlerContext): CallHandlers {
  return new ContextHandlers(ctx);
}

class ContextHandlers implements CallHandlers {
  constructor(private readonly ctx: HandlerContext) {}

  progress(value: number, total?: number, message?: string): void {
    this.ctx.progress(value, total, message);
  }

  log(level: PrologLogLevel, data: Json, logger?: string): void {
    this.ctx.log(level, data, logger);
  }

  closeStream(): void {
    this.ctx.closeStream();
  }

  elicit(message: string, schema: JsonObject): Promise<InputResponseValue> {
    return this.ctx.elicit(message, schema);
  }

  async sample(body: JsonObject): Promise<Json> {
    const parsed = vocabularySchemas.inputRequest.safeParse({
      kind: 'input_request',
      key: 'sample',
      request: body,
    });
    if (!parsed.success || parsed.data.request.kind !== 'sampling')
      throw new Error(
        `invalid sampling request: ${parsed.error?.issues[0]?.message ?? 'not sampling'}`,
      );
    const { kind: _kind, ...request } = parsed.data.request;
    return (await this.ctx.sample(request)) as unknown as Json;
  }

  async roots(): Promise<Json> {
    return { kind: 'roots_result', roots: await this.ctx.listRoots() };
  }
}
