import type { Era, Json, JsonObject, JsonRpcMessage, RequestId } from '@rondo/protocol';
import type { z } from 'zod';
import type { HandlerContext } from './context.js';
import { ConfigurationError } from './errors.js';
import type { Middleware } from './middleware.js';
import type { RequestAttachment, RequestCall } from './pipeline/call.js';
import type { RoundOperation } from './pipeline/operations.js';
import type { RequiredCapability } from './pipeline/pipeline.js';
import type { DescriptorKind } from './pipeline/lists.js';
import type { ServerRuntime } from './runtime.js';
import type { RondoServer } from './server.js';

/**
 * An MCP extension (`io.modelcontextprotocol/tasks`, `.../skills`, `.../ui`, ...) as one value a
 * server `use`s. Every member but `id` is optional: an extension may only announce itself, or
 * serve methods of its own, decorate descriptors, answer HTTP paths beside the MCP endpoint, and
 * run around calls. Both era adapters read it; neither names an extension.
 */
export interface Extension {
  /** The identifier clients see under `capabilities.extensions` (reverse-DNS, SEP-2133). */
  readonly id: string;
  /**
   * The settings announced under `capabilities.extensions[id]`, in `initialize` (legacy) and
   * `server/discover` (modern); `undefined` announces nothing on that era. Read again whenever the
   * server's catalog changes. Absent: `{}` on both eras.
   */
  settings?(era: Era, runtime: ServerRuntime): JsonObject | undefined;
  /** Methods the extension adds to the eras' tables, by JSON-RPC method name. */
  readonly methods?: Readonly<Record<string, ExtensionMethod>>;
  /** `_meta` members added to each descriptor of a list page (merged over the descriptor's own). */
  describe?(kind: DescriptorKind, definition: object, era: Era): JsonObject | undefined;
  /** HTTP paths served beside the MCP endpoint by the HTTP transports (a well-known document). */
  readonly routes?: readonly HttpRoute[];
  /** Runs around every call, as `server.use(middleware)` does: intercepts, or adds `_meta` to results. */
  readonly middleware?: Middleware;
  /**
   * The modern wire only: may answer a call of a round method (`tools/call`, `prompts/get`,
   * `resources/read`) itself instead of running its round, once the call's answers are read (the
   * Tasks extension answers a task handle); `undefined` lets the round run.
   */
  takeRound?(round: RoundTakeover): Promise<JsonObject | undefined>;
  /**
   * The modern wire only: reads the `subscriptions/listen` filter members the extension owns and
   * says what it honours and what it sends on the stream; `undefined` when the filter asks it
   * nothing.
   */
  listen?(
    filter: JsonObject,
    call: ExtensionCall,
    runtime: ServerRuntime,
  ): Promise<ListenPart | undefined>;
  /** Called once when the server `use`s the extension: register resources or a provider here. */
  attach?(server: RondoServer): void;
  /** Releases what the extension holds when the server closes. */
  close?(): Promise<void>;
}

/** What an extension method's handler gets besides its params: the request's context. */
export interface ExtensionCall extends HandlerContext {
  /** The JSON-RPC method being served. */
  readonly method: string;
  /** The request's JSON-RPC id (the notifications of a long-lived request name it). */
  readonly id: RequestId;
  /** Sends a message that belongs to this request before its answer (a long-lived request's notifications). */
  send(message: JsonRpcMessage): void;
  /**
   * Who the client is as the transport tells clients apart without a principal (an opaque key,
   * say of the peer's address), for per-client shares; absent when the transport cannot tell.
   */
  readonly client?: string | undefined;
  /** What a long-lived request ends gracefully with when its connection closes (see `longLived`). */
  attachment: RequestAttachment | undefined;
}

/** A call of a round method an extension may answer itself (see {@link Extension.takeRound}). */
export interface RoundTakeover {
  readonly call: RequestCall;
  readonly runtime: ServerRuntime;
  /** The round operation the call would run, and the request's identity for it (tool name, ...). */
  readonly operation: RoundOperation<unknown, Json>;
  readonly identity: Json;
  /** True when the call is a retry bringing answers (it carried a `requestState`). */
  readonly retry: boolean;
}

/** An extension's share of one `subscriptions/listen` stream. */
export interface ListenPart {
  /** Filter members honoured, merged into the acknowledgement's `notifications`. */
  readonly honoured: JsonObject;
  /** Starts sending (each notification's `_meta` is added by the stream); returns the stop. */
  start(send: (method: string, params: JsonObject) => void): () => void;
}

/** One method an extension adds. */
export interface ExtensionMethod<P = never> {
  /** The params schema; a mismatch is -32602 before the handler runs. */
  readonly params: z.ZodType;
  /** The eras whose tables carry the method; on any other it is -32601. */
  readonly eras: readonly Era[];
  /**
   * Answers with the result's members; the era adds what its wire needs (`resultType` and the
   * serverInfo `_meta` on the modern one). Throw an `McpError` to answer with an error.
   */
  readonly handle: (params: P, call: ExtensionCall, runtime: ServerRuntime) => Promise<JsonObject>;
  /** The server capability the method belongs to; without it the method is -32601. */
  readonly requires?: RequiredCapability;
  /**
   * The param the modern wire's `Mcp-Name` HTTP header mirrors (`taskId`, say), checked like the
   * `name` of `tools/call`.
   */
  readonly nameParam?: string;
  /**
   * The request stays open until the client, the connection or the handler ends it (a push
   * stream): it is not counted among the requests in flight.
   */
  readonly longLived?: boolean;
}

/** A path an extension serves over HTTP, framework-free: the HTTP transports call it. */
export interface HttpRoute {
  /**
   * The exact path (`/.well-known/...`), without query; a path starting with `./` is beside the
   * MCP endpoint (`./server-card` is `/mcp/server-card` for an endpoint at `/mcp`).
   */
  readonly path: string;
  /** Answers one request for the path. */
  serve(request: RouteRequest): RouteReply | Promise<RouteReply>;
}

/** What a route sees of an HTTP request. */
export interface RouteRequest {
  readonly method: string;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The path the transport serves MCP on (`/mcp`), so a document can point at it. */
  readonly mcpPath: string;
}

/** A route's answer; the transport writes it as it is. */
export interface RouteReply {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/**
 * Declares one extension method with its params typed from its schema (the handler receives the
 * parsed value).
 */
export function extensionMethod<S extends z.ZodType>(method: {
  params: S;
  eras: readonly Era[];
  handle: (params: z.infer<S>, call: ExtensionCall, runtime: ServerRuntime) => Promise<JsonObject>;
  requires?: RequiredCapability;
  nameParam?: string;
  longLived?: boolean;
}): ExtensionMethod {
  return method;
}

/** The identifiers an extension may take: `vendor-prefix/name`, as SEP-2133 spells them. */
const EXTENSION_ID = /^[a-z0-9][a-z0-9.-]*\/[A-Za-z0-9][A-Za-z0-9._/-]*$/;

/** Throws a `ConfigurationError` when `extension` cannot join `present` (bad or taken id, taken method). */
export function checkExtension(extension: Extension, present: readonly Extension[]): void {
  if (!EXTENSION_ID.test(extension.id))
    throw new ConfigurationError(
      `extension id "${extension.id}" is not a vendor-prefixed identifier (e.g. io.modelcontextprotocol/skills)`,
    );
  if (present.some((other) => other.id === extension.id))
    throw new ConfigurationError(`the extension ${extension.id} is already in use`);
  for (const method of Object.keys(extension.methods ?? {})) {
    const owner = present.find((other) => other.methods?.[method] !== undefined);
    if (owner)
      throw new ConfigurationError(
        `the extension ${extension.id} adds ${method}, which ${owner.id} already serves`,
      );
  }
}

/**
 * The `capabilities.extensions` object an era announces: what the providers announce
 * (`ProviderCapabilities.extensions`), then each extension's settings, merged over the providers'
 * under the same id (a Prolog provider declaring `ui` and a server using the Apps extension
 * announce one `io.modelcontextprotocol/ui`). Read once the server is ready.
 */
export function extensionSettings(
  extensions: readonly Extension[],
  era: Era,
  runtime: ServerRuntime,
): Record<string, JsonObject> {
  const announced: Record<string, JsonObject> = { ...runtime.capabilities().extensions };
  for (const extension of extensions) {
    const settings = extension.settings ? extension.settings(era, runtime) : {};
    if (settings !== undefined)
      announced[extension.id] = { ...announced[extension.id], ...settings };
  }
  return announced;
}

/** The extensions a server uses, in the order it took them. */
export class ServerExtensions {
  private readonly list: Extension[] = [];

  /** The extensions in use. */
  get all(): readonly Extension[] {
    return this.list;
  }

  /** Adds one after {@link checkExtension}. */
  add(extension: Extension): void {
    checkExtension(extension, this.list);
    this.list.push(extension);
  }

  /** The extension with this id, if in use. */
  get(id: string): Extension | undefined {
    return this.list.find((extension) => extension.id === id);
  }

  /** Closes every extension. */
  async close(): Promise<void> {
    await Promise.all(this.list.map(async (extension) => extension.close?.()));
  }
}
