import type { HandlerContext } from '@rondo/core';
import { vocabularySchemas, type Json, type JsonObject } from '@rondo/protocol';
import type { CallHandlers } from './workerContract.js';

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

/** The closures a worker call may use, bound to the request's context. */
export function handlersOf(ctx: HandlerContext): CallHandlers {
  return {
    progress: (value, total, message) => ctx.progress(value, total, message),
    log: (level, data, logger) => ctx.log(level, data, logger),
    closeStream: () => ctx.closeStream(),
    elicit: (message, schema) => ctx.elicit(message, schema),
    sample: async (body) => {
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
      return (await ctx.sample(request)) as unknown as Json;
    },
    roots: async () => ({ kind: 'roots_result', roots: await ctx.listRoots() }),
  };
}
