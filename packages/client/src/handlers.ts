import {
  ErrorCode,
  McpError,
  isPlainObject,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestParams,
  type ElicitResult,
  type Era,
  type Root,
} from '@rondo/protocol';
import {
  CreateMessageRequestParamsSchema,
  ElicitRequestParamsSchema,
  LegacyElicitRequestParamsSchema,
  ListRootsRequestParamsSchema,
  describeZodError,
} from '@rondo/protocol/internal';
import type { z } from 'zod';

/** What a handler knows about the request it serves. */
export interface HandlerContext {
  /** The era the request came in: a legacy server-to-client request or a modern `input_required` round. */
  readonly era: Era;
  /** Aborted when the request the input is for is abandoned. */
  readonly signal?: AbortSignal | undefined;
  /** The key of the input request in its `input_required` round (modern era). */
  readonly key?: string | undefined;
}

/**
 * How the client answers what a server asks of it. Each handler is written once: it answers the
 * legacy era's server-to-client requests and the modern era's `input_required` rounds alike. A
 * capability is advertised only when its handler is given.
 */
export interface ClientHandlers {
  /** Answers `elicitation/create` (form or URL mode). */
  readonly elicitation?: (
    params: ElicitRequestParams,
    context: HandlerContext,
  ) => Promise<ElicitResult> | ElicitResult;
  /** Answers `sampling/createMessage`. */
  readonly sampling?: (
    params: CreateMessageRequestParams,
    context: HandlerContext,
  ) => Promise<CreateMessageResult> | CreateMessageResult;
  /** Answers `roots/list` with the client's roots. */
  readonly roots?: (context: HandlerContext) => Promise<Root[]> | Root[];
}

/** What the client advertises: derived from the handlers, merged with `extra`. */
export function capabilitiesFor(
  handlers: ClientHandlers,
  extra: ClientCapabilities = {},
): ClientCapabilities {
  const capabilities: ClientCapabilities = { ...extra };
  if (handlers.elicitation) capabilities.elicitation ??= { form: { applyDefaults: true }, url: {} };
  if (handlers.sampling) capabilities.sampling ??= {};
  if (handlers.roots) capabilities.roots ??= {};
  return capabilities;
}

/**
 * Answers one input request (`elicitation/create`, `sampling/createMessage`, `roots/list`) with
 * the matching handler. A request without a handler is -32601; params that do not fit are -32602.
 */
export async function answerInput(
  handlers: ClientHandlers,
  method: string,
  params: unknown,
  context: HandlerContext,
): Promise<Record<string, unknown>> {
  switch (method) {
    case 'elicitation/create': {
      const handler = handlers.elicitation ?? missing(method);
      // A legacy URL elicitation may leave out its id; both shapes reach the handler as one type.
      const request: ElicitRequestParams =
        context.era === 'legacy'
          ? parse(LegacyElicitRequestParamsSchema, params, method)
          : parse(ElicitRequestParamsSchema, params, method);
      const result = await handler(request, context);
      return withDefaults(request, result);
    }
    case 'sampling/createMessage': {
      const handler = handlers.sampling ?? missing(method);
      const request = parse(CreateMessageRequestParamsSchema, params, method);
      return await handler(request, context);
    }
    case 'roots/list': {
      const handler = handlers.roots ?? missing(method);
      parse(ListRootsRequestParamsSchema, params ?? {}, method);
      return { roots: await handler(context) };
    }
    default:
      throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }
}

function missing(method: string): never {
  throw new McpError(ErrorCode.MethodNotFound, `The client has no handler for ${method}`);
}

function parse<S extends z.ZodType>(schema: S, params: unknown, method: string): z.output<S> {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  throw new McpError(
    ErrorCode.InvalidParams,
    `Invalid params for ${method}: ${describeZodError(parsed.error, 'params')}`,
  );
}

/**
 * Fills the defaults a form's schema declares into an accepted answer that leaves them out, as the
 * client promises when it advertises `applyDefaults`.
 */
function withDefaults(request: ElicitRequestParams, result: ElicitResult): ElicitResult {
  if (result.action !== 'accept' || !('requestedSchema' in request)) return result;
  const properties = (request.requestedSchema as { properties?: unknown }).properties;
  if (!isPlainObject(properties)) return result;
  const content: Record<string, unknown> = { ...(result.content ?? {}) };
  for (const [name, property] of Object.entries(properties)) {
    if (content[name] === undefined && isPlainObject(property) && 'default' in property) {
      content[name] = property.default;
    }
  }
  return { ...result, content } as ElicitResult;
}
