import type { ToolTransform } from './catalogs/toolTransform.js';
import type { ToolSearchOptions } from './catalogs/toolSearchProvider.js';
import type { Json, JsonObject } from '@rondo/protocol';
import type { z } from 'zod';
import type {
  CachePolicy,
  Icon,
  PromptArgument,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolAnnotations,
} from './definitions.js';
import type { SchemaInput } from './inputValidation.js';
import type { StandardSchema } from './standardSchema.js';
import type { LogLevel } from './context.js';
import type { ServerLimits } from './limits.js';
import type { ProviderChange } from './provider.js';
import type { RequestStateOptions } from './requestState.js';
import type { Visibility } from './visibility.js';
import type { SharedState } from './shared/sharedState.js';
import type { ServerCardOptions } from './serverCard.js';
import type { TaskDeclaration, TaskSupport } from './taskSupport.js';

/** Who the server is, as told to clients. */
export interface ServerInfo {
  name: string;
  version: string;
  title?: string;
  description?: string;
  instructions?: string;
  icons?: Icon[];
  websiteUrl?: string;
}

export interface ServerOptions extends ServerInfo {
  /** How requestState is sealed (key, lifetime). */
  requestState?: RequestStateOptions;
  /** The most rounds one request may take before it fails (default 10). */
  roundLimit?: number;
  /** Items per page of list results (default 100). */
  pageSize?: number;
  /**
   * Bytes of the descriptors (as JSON) of one page of list results at most (default 4 MiB), so a
   * catalog of large descriptors (a gateway's, made of its upstreams') reaches clients in pages
   * their frame limit takes. A page holds one descriptor at least.
   */
  maxPageBytes?: number;
  /** The cache policy of cacheable results when neither a rule nor a provider sets one. */
  defaultCachePolicy?: CachePolicy;
  /** Limits on what a request may carry (argument nesting depth). */
  limits?: ServerLimits;
  /**
   * State shared with the other processes serving the same endpoint (`@rondo/redis`): sessions,
   * their event logs, change notifications, relayed messages (and tasks, for `@rondo/tasks`). Without it everything lives
   * in this process, which is right for one process.
   */
  shared?: SharedState;
  /** Where the server's own diagnostics go (default: stderr). */
  log?: (level: 'info' | 'warning' | 'error', message: string) => void;
  /**
   * Serve the Server Card (SEP-2127, a draft) at `SERVER_CARD_PATH` over HTTP: `true`, or the
   * card's options. Off by default.
   */
  serverCard?: boolean | ServerCardOptions;
  /** Catalog transforms: tools derived from others, and tool search (see docs/catalogs.md). */
  catalog?: CatalogOptions;
}

/** How a server reshapes its catalog. */
export interface CatalogOptions {
  /**
   * Tools derived from others, by the name the server offers the original under (a mounted or
   * proxied tool by its prefixed name). A transform that does not fit its tool stops the server
   * from starting (or, for a tool that appears later, is logged and the tool left out).
   */
  tools?: Readonly<Record<string, ToolTransform>>;
  /**
   * List only meta-tools (search, schemas, call) and the pinned tools; every tool stays callable
   * by its name. `true` for the defaults.
   */
  toolSearch?: boolean | ToolSearchOptions;
}

/** How a tool is registered with `server.tool(name, spec, handler)`. */
export interface ToolSpec<S extends SchemaInput> {
  description?: string;
  title?: string;
  input?: S;
  output?: SchemaInput;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: JsonObject;
  /** Who may see the tool; hidden, it is left out of lists and answers like an unknown tool. */
  visible?: Visibility;
  /**
   * Scopes a call needs: the tool is listed to everyone who may see it, and a call without every
   * one of them is refused (HTTP 403 `insufficient_scope` naming them, so an OAuth client steps up).
   */
  scopes?: readonly string[];
  /**
   * Whether a call may run as a task for a modern client that declares the Tasks extension:
   * `'optional'` (the server makes it a task when the client can), `'required'` (a client without
   * the extension gets -32021). Legacy clients always get an ordinary call. Default: never.
   */
  task?: TaskSupport | TaskDeclaration;
}

/** The arguments a handler of a tool with input schema `S` receives. */
export type ArgsOf<S> = S extends z.ZodType
  ? z.output<S>
  : S extends StandardSchema<unknown, infer Output>
    ? Output
    : Record<string, unknown>;

/**
 * The arguments a handler of a prompt declaring `A` receives. For a literal list: each required
 * argument a `string`, each other one `string | undefined`; arguments not written out as a literal
 * list (or none declared) give the plain string map. For a schema (zod, any Standard Schema): its
 * output type, as the schema parsed the arguments.
 */
export type PromptArgsOf<A extends PromptArguments> = A extends readonly PromptArgument[]
  ? number extends A['length']
    ? Record<string, string>
    : {
        [P in A[number] as P extends { required: true } ? P['name'] : never]: string;
      } & {
        [P in A[number] as P extends { required: true } ? never : P['name']]?: string | undefined;
      }
  : A extends z.ZodType | StandardSchema
    ? ArgsOf<A>
    : Record<string, string>;

/**
 * A prompt's arguments as registered: a list of descriptors, or an object schema whose fields are
 * strings (zod, any Standard Schema that exports JSON Schema, or JSON Schema), from which the list
 * is derived and with which the arguments are validated.
 */
export type PromptArguments = readonly PromptArgument[] | SchemaInput;

/**
 * How a prompt is registered with `server.prompt(name, spec, handler)`; `A`, the declared
 * arguments, types the handler's arguments (see {@link PromptArgsOf}).
 */
export interface PromptSpec<A extends PromptArguments = PromptArgument[]> {
  description?: string;
  title?: string;
  arguments?: A;
  icons?: Icon[];
  _meta?: JsonObject;
  /** Who may see the prompt; hidden, it is left out of lists and answers like an unknown prompt. */
  visible?: Visibility;
  /** Scopes a `prompts/get` needs (see {@link ToolSpec.scopes}). */
  scopes?: readonly string[];
}

/** How a resource is registered with `server.resource(uri, spec, handler)`. */
export type ResourceSpec = Omit<ResourceDefinition, 'uri'> & {
  /** Who may see the resource; hidden, it is left out of lists and reads as not found. */
  visible?: Visibility;
  /** Scopes a `resources/read` needs (see {@link ToolSpec.scopes}). */
  scopes?: readonly string[];
};

/** How a template is registered with `server.resourceTemplate(template, spec, handler)`. */
export type TemplateSpec = Omit<ResourceTemplateDefinition, 'uriTemplate'> & {
  /** Who may see the template; hidden, its URIs read as not found. */
  visible?: Visibility;
  /** Scopes a `resources/read` of its URIs needs (see {@link ToolSpec.scopes}). */
  scopes?: readonly string[];
};

/** A server's cache policy for one method: fixed, or by key (a resource URI). */
export type CachePolicyRule = CachePolicy | ((key: string | undefined) => CachePolicy | undefined);

/** The capabilities a server's providers imply. */
export interface ServerCapabilitySet {
  tools: boolean;
  prompts: boolean;
  resources: boolean;
  subscribe: boolean;
  listChanged: boolean;
  completions: boolean;
  /** Extension settings the providers announce, by id (see `ProviderCapabilities.extensions`). */
  extensions?: Readonly<Record<string, JsonObject>>;
  /** Some provider keeps tasks of its own (see `ProviderCapabilities.tasks`). */
  tasks?: boolean;
}

/** A change a server announces to every connected era adapter. */
export type ServerChange = ProviderChange;

/**
 * A message about the whole server rather than one request (`RondoServer.broadcastLog`): a legacy
 * session whose `logging/setLevel` admits `level` receives it as a `notifications/message`.
 */
export interface ServerLogMessage {
  level: LogLevel;
  data: Json;
  logger?: string;
}
