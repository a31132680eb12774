import type {
  CompletionReference,
  Era,
  LoggingLevel,
  Prompt,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from '@rondo/protocol';
import { ClientCore, type ClientOptions } from './client.js';
import type { ClientEventName, ClientEvents } from './events.js';
import { ClientEventsExtension } from './events/clientEventsExtension.js';
import type { ServerFacts } from './negotiate.js';
import type { AnswerReceiver } from './pending.js';
import { walkPages } from './pagination.js';
import type { CallOptions } from './rpc.js';
import { ClientSkills } from './skills/clientSkills.js';
import { Subscription, type SubscriptionTargets } from './subscription.js';
import { ToolTask } from './tasks.js';
import type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  PromptsPage,
  ReadResourceResult,
  ResourceTemplatesPage,
  ResourcesPage,
  ToolsPage,
} from './types.js';

/**
 * An MCP client for both eras. `connect()` finds the era (or uses the pinned one); every method
 * then works the same way whichever wire is used.
 *
 * ```ts
 * const client = new Client({ transport: stdioTransport({ command: 'node', args: ['server.js'] }) });
 * await client.connect();
 * const result = await client.callTool('add', { a: 2, b: 3 });
 * await client.close();
 * ```
 */
export class Client {
  readonly #core: ClientCore;
  /** The Skills extension (`io.modelcontextprotocol/skills`): list, get, load and verify skills, read directories. */
  readonly skills: ClientSkills;
  /**
   * The Events extension (`io.modelcontextprotocol/events`): list the server's event types, poll
   * them, stream them. (`events(...)` is the client's own events, such as `toolsListChanged`.)
   */
  readonly serverEvents: ClientEventsExtension;

  constructor(options: ClientOptions) {
    this.#core = new ClientCore(options);
    this.skills = new ClientSkills(this.#core);
    this.serverEvents = new ClientEventsExtension(this.#core);
  }

  /** Connects and negotiates the era; resolves with what the server said about itself. */
  connect(): Promise<ServerFacts> {
    return this.#core.connect();
  }

  /** What the server said about itself when the client connected. */
  get server(): ServerFacts {
    return this.#core.server;
  }

  /** The era in use: `legacy` (2025-06-18, 2025-11-25) or `modern` (2026-07-28). */
  get era(): Era {
    return this.#core.era;
  }

  /** The server's capabilities. */
  get capabilities(): ServerCapabilities {
    return this.#core.capabilities;
  }

  /** One page of the server's tools (tools with invalid `x-mcp-header` declarations are left out). */
  async listTools(cursor?: string, options?: CallOptions): Promise<ToolsPage> {
    const page = (await this.#core.request(
      'tools/list',
      cursorParams(cursor),
      options,
    )) as unknown as ToolsPage;
    return { ...page, tools: this.#core.tools.learn(page.tools) as Tool[] };
  }

  /** Every tool, walking all pages. */
  listAllTools(options?: CallOptions): Promise<Tool[]> {
    return walkPages((cursor) => this.listTools(cursor, options), 'tools');
  }

  /**
   * Calls a tool. A tool error is a result with `isError`; a listed tool's `outputSchema` is
   * checked against the result's `structuredContent`.
   */
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    options?: CallOptions,
  ): Promise<CallToolResult> {
    const result = await this.#core.request('tools/call', { name, arguments: args }, options);
    this.#core.tools.checkOutput(name, result);
    return result as CallToolResult;
  }

  /**
   * Calls a tool as a task (the Tasks extension in the modern era, the `task` member of 2025-11-25):
   * resolves once the server created the task; `result()` on it waits for the outcome.
   */
  callToolAsTask(
    name: string,
    args: Record<string, unknown> = {},
    options?: CallOptions & { ttlMs?: number },
  ): Promise<ToolTask> {
    return ToolTask.start(this.#core, name, args, options);
  }

  /** One page of the server's prompts. */
  async listPrompts(cursor?: string, options?: CallOptions): Promise<PromptsPage> {
    return (await this.#core.request(
      'prompts/list',
      cursorParams(cursor),
      options,
    )) as unknown as PromptsPage;
  }

  /** Every prompt, walking all pages. */
  listAllPrompts(options?: CallOptions): Promise<Prompt[]> {
    return walkPages((cursor) => this.listPrompts(cursor, options), 'prompts');
  }

  /** Gets a prompt's messages. */
  async getPrompt(
    name: string,
    args: Record<string, string> = {},
    options?: CallOptions,
  ): Promise<GetPromptResult> {
    return (await this.#core.request(
      'prompts/get',
      { name, arguments: args },
      options,
    )) as GetPromptResult;
  }

  /** One page of the server's resources. */
  async listResources(cursor?: string, options?: CallOptions): Promise<ResourcesPage> {
    return (await this.#core.request(
      'resources/list',
      cursorParams(cursor),
      options,
    )) as unknown as ResourcesPage;
  }

  /** Every resource, walking all pages. */
  listAllResources(options?: CallOptions): Promise<Resource[]> {
    return walkPages((cursor) => this.listResources(cursor, options), 'resources');
  }

  /** One page of the server's resource templates. */
  async listResourceTemplates(
    cursor?: string,
    options?: CallOptions,
  ): Promise<ResourceTemplatesPage> {
    const result = await this.#core.request(
      'resources/templates/list',
      cursorParams(cursor),
      options,
    );
    return result as unknown as ResourceTemplatesPage;
  }

  /** Every resource template, walking all pages. */
  listAllResourceTemplates(options?: CallOptions): Promise<ResourceTemplate[]> {
    return walkPages((cursor) => this.listResourceTemplates(cursor, options), 'resourceTemplates');
  }

  /** Reads a resource. */
  async readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    return (await this.#core.request('resources/read', { uri }, options)) as ReadResourceResult;
  }

  /** Asks for completions of a prompt's or a resource template's argument. */
  async complete(
    ref: CompletionReference,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
    options?: CallOptions,
  ): Promise<CompleteResult> {
    const params: Record<string, unknown> = { ref, argument };
    if (context) params.context = context;
    return (await this.#core.request('completion/complete', params, options)) as CompleteResult;
  }

  /**
   * Asks for change events: resource updates for `targets.resources`, and the list-changed events
   * named. In the legacy era this subscribes to each resource (list changes arrive on their own);
   * in the modern era it opens a `subscriptions/listen` stream. Events arrive through {@link on}
   * and {@link events}; `close()` on the subscription ends it.
   */
  subscribe(targets: SubscriptionTargets): Promise<Subscription> {
    return Subscription.open(this.#core, targets);
  }

  /** Sets the server's log level for this client; log messages arrive as `log` events. */
  setLogLevel(level: LoggingLevel): Promise<void> {
    return this.#core.setLogLevel(level);
  }

  /** Checks the server answers (`ping` in the legacy era, `server/discover` in the modern era). */
  async ping(options?: CallOptions): Promise<void> {
    await this.#core.request(
      this.era === 'legacy' ? 'ping' : 'server/discover',
      undefined,
      options,
    );
  }

  /** Sends any request in the negotiated era (the params are dressed for it) and resolves with its result. */
  request(
    method: string,
    params?: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<Record<string, unknown>> {
    return this.#core.request(method, params, options);
  }

  /**
   * Sends a request as it is, its params already dressed for the negotiated era (a modern request
   * carries its own `_meta`), and resolves with the server's result unchecked: no `input_required`
   * rounds, no output checks. For gateways that pass a caller's request through; see
   * {@link Client.request} for everything else.
   */
  forward(
    method: string,
    params: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<Record<string, unknown>> {
    return this.#core.forward(method, params, options);
  }

  /**
   * {@link forward}, with the answer given to `receiver` instead of a promise: its `resolve` gets
   * the result, its `reject` the error. A gateway passing thousands of calls a second saves the
   * promises of each this way. Both run while the client reads the connection: neither may throw.
   */
  forwardTo(
    method: string,
    params: Record<string, unknown>,
    receiver: AnswerReceiver,
    options?: CallOptions,
  ): void {
    this.#core.forwardTo(method, params, receiver, options);
  }

  /** Adds an event listener; returns the function that removes it. */
  on<E extends ClientEventName>(event: E, listener: (value: ClientEvents[E]) => void): () => void {
    return this.#core.on(event, listener);
  }

  /** The events of one name as an async iterator; ends when `signal` aborts. */
  events<E extends ClientEventName>(
    event: E,
    signal?: AbortSignal,
  ): AsyncGenerator<ClientEvents[E]> {
    return this.#core.events.iterate(event, signal);
  }

  /** Closes the connection (and the server process or HTTP session); open requests fail. */
  close(): Promise<void> {
    return this.#core.close();
  }

  /** Closes the client when used with `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

function cursorParams(cursor: string | undefined): Record<string, unknown> | undefined {
  return cursor === undefined ? undefined : { cursor };
}
