import type { Channel } from './channel.js';
import { RpcError, type JsonObject, type JsonRpcMessage, type JsonRpcRequest } from './jsonRpc.js';
import { paramHeaders } from './httpChannel.js';

/** The revision the playground speaks. */
export const PROTOCOL_VERSION = '2026-07-28';

/**
 * What the playground can do for a server: fill forms, open links for URL elicitation, follow
 * tasks (the Tasks extension: a long tool call may answer a task handle) and receive events (the
 * Events extension: `events/poll` and `events/stream`).
 */
export const CLIENT_CAPABILITIES = {
  elicitation: { form: {}, url: {} },
  extensions: { 'io.modelcontextprotocol/tasks': {}, 'io.modelcontextprotocol/events': {} },
};

const CLIENT_INFO = { name: 'rondo-playground', title: 'Rondo playground', version: '0.1.0' };

/** Where the client reports every message it sends and receives. */
export type TrafficSink = (direction: 'out' | 'in', message: JsonRpcMessage) => void;

export interface CallOptions {
  /** Ask for progress: a fresh progress token goes into `_meta`. */
  progress?: boolean;
  /** Messages related to this request (progress, subscription notifications). */
  onRelated?: (message: JsonRpcMessage) => void;
  signal?: AbortSignal;
}

/**
 * A modern (2026-07-28) MCP client: no handshake; every request carries the protocol version, the
 * client's capabilities and identity in `params._meta`, and stands on its own.
 */
export class McpClient {
  private readonly toolSchemas = new Map<string, JsonObject>();

  /** `ids` hands out request ids; share one among the clients of a page to keep them unique. */
  constructor(
    readonly channel: Channel,
    private readonly traffic: TrafficSink,
    private readonly ids: { next(): number } = counter(),
  ) {}

  /** Remembers tools' input schemas, for the `Mcp-Param-*` headers of later calls. */
  rememberTools(tools: readonly JsonObject[]): void {
    for (const tool of tools) {
      if (typeof tool.name === 'string')
        this.toolSchemas.set(tool.name, (tool.inputSchema as JsonObject) ?? {});
    }
  }

  /** `Mcp-Param-*` headers for a request (only tools/call has any). */
  paramHeadersFor(request: JsonRpcRequest): Record<string, string> {
    if (request.method !== 'tools/call' || typeof request.params.name !== 'string') return {};
    return paramHeaders(
      this.toolSchemas.get(request.params.name),
      (request.params.arguments as JsonObject) ?? {},
    );
  }

  /** Sends one request; resolves with its result, throws {@link RpcError} for an error answer. */
  async call(
    method: string,
    params: JsonObject = {},
    options: CallOptions = {},
  ): Promise<JsonObject> {
    const id = this.ids.next();
    const meta: JsonObject = {
      'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
      'io.modelcontextprotocol/clientCapabilities': CLIENT_CAPABILITIES,
      'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
    };
    // A progress token must be unique among active requests; the request id already is.
    if (options.progress) meta.progressToken = `progress-${id}`;
    const request: JsonRpcRequest = {
      jsonrpc: '2.0',
      id,
      method,
      params: { ...params, _meta: meta },
    };
    this.traffic('out', request);
    const onRelated = (message: JsonRpcMessage) => {
      this.traffic('in', message);
      options.onRelated?.(message);
    };
    const response = await this.channel.request(request, onRelated, options.signal);
    this.traffic('in', response);
    if (response.error)
      throw new RpcError(response.error.code, response.error.message, response.error.data);
    return response.result ?? {};
  }

  close(): void {
    this.channel.close();
  }
}

function counter(): { next(): number } {
  let last = 0;
  return { next: () => ++last };
}
