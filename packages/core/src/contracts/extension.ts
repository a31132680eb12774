import type { Era, Json, JsonObject, JsonRpcMessage, RequestId } from '@rondo/protocol';
import type { z } from 'zod';
import type { HandlerContext } from './context.js';
import type { Principal, TaskDeclaration, ToolDefinition } from './definitions.js';
import type { Middleware } from './middleware.js';
import type { Provider } from './provider.js';
import type { HttpRoute } from './routes.js';
import type { RequiredCapability, ServerCapabilitySet, ServerInfo } from './server.js';

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
  settings?(era: Era, host: ExtensionHost): JsonObject | undefined;
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
    host: ExtensionHost,
  ): Promise<ListenPart | undefined>;
  /**
   * Called once when the server `use`s the extension: register a provider (serving resources, say)
   * here, or keep the host for what the extension serves outside a request (an HTTP route).
   */
  attach?(server: ProviderRegistry, host: ExtensionHost): void;
  /** Releases what the extension holds when the server closes. */
  close?(): Promise<void>;
}

/**
 * What an extension sees of the server serving it, whichever request it serves: who the server is,
 * what its providers offer, the tools a caller may call with their task support, the list page
 * size, and the server's log. The server's runtime implements it; an extension never holds the
 * runtime (its operations skip middleware), the request's own context is its {@link ExtensionCall}.
 */
export interface ExtensionHost {
  /** The server's name, version and the rest it announces. */
  readonly info: ServerInfo;
  /** Items per page of list results, for an extension's own lists (`skills/list`). */
  readonly pageSize: number;
  /** What the providers offer (their `extensions` settings and `tasks` included). */
  capabilities(): ServerCapabilitySet;
  /** The tool `name` as `principal` sees it: `undefined` when unknown or hidden from them. */
  tool(name: string, principal: Principal | undefined): HostedTool | undefined;
  /** Every tool that may be called, whoever the caller. */
  callableTools(): readonly HostedTool[];
  /** Writes an operator message to the server's log. */
  log(level: 'info' | 'warning' | 'error', message: string): void;
}

/** A tool as an extension sees it: its descriptor and its task support. */
export interface HostedTool {
  readonly definition: ToolDefinition;
  readonly task: TaskDeclaration;
}

/** What an extension may register into when a server takes it (`RondoServer` is one). */
export interface ProviderRegistry {
  /** Adds a whole provider, as `server.provider(...)` does. */
  provider(provider: Provider): unknown;
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
  readonly call: ExtensionCall;
  readonly host: ExtensionHost;
  /** The round method the call would run (`tools/call`, `prompts/get`, `resources/read`). */
  readonly method: string;
  /** The request's identity for it: `{ name, arguments }`, `{ uri }`. */
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
  readonly handle: (params: P, call: ExtensionCall, host: ExtensionHost) => Promise<JsonObject>;
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

/**
 * Declares one extension method with its params typed from its schema (the handler receives the
 * parsed value).
 */
export function extensionMethod<S extends z.ZodType>(method: {
  params: S;
  eras: readonly Era[];
  handle: (params: z.infer<S>, call: ExtensionCall, host: ExtensionHost) => Promise<JsonObject>;
  requires?: RequiredCapability;
  nameParam?: string;
  longLived?: boolean;
}): ExtensionMethod {
  return method;
}

/** Something that ends with its request: an open subscription. */
export interface RequestAttachment {
  /** Ends gracefully because the connection is closing. */
  closeGracefully(): void;
}

export type DescriptorKind = 'tool' | 'prompt' | 'resource' | 'resourceTemplate';
