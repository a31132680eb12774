import type { Channel } from './channel.js';
import {
  isResponse,
  objectAt,
  parseMessage,
  type JsonObject,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from './jsonRpc.js';
import { sseData } from './sse.js';

const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

/**
 * A header value as the 2026-07-28 Streamable HTTP rules want it: plain when it is visible ASCII
 * without surrounding spaces, otherwise the Base64 sentinel `=?base64?...?=` of its UTF-8 bytes.
 */
export function headerValue(value: string): string {
  const plain =
    /^[\x21-\x7E]([\x20-\x7E]*[\x21-\x7E])?$/.test(value) && !/^=\?base64\?.*\?=$/.test(value);
  if (plain) return value;
  const bytes = new TextEncoder().encode(value);
  return `=?base64?${btoa(String.fromCharCode(...bytes))}?=`;
}

/** The body member `Mcp-Name` mirrors: a tool or prompt name, a resource URI, a task id. */
function nameOf(method: string, params: JsonObject): unknown {
  if (method === 'tools/call' || method === 'prompts/get') return params.name;
  if (method === 'resources/read') return params.uri;
  if (method.startsWith('tasks/')) return params.taskId;
  return undefined;
}

/** The standard headers of one request: version, method, name, and `Mcp-Param-*` for x-mcp-header arguments. */
function standardHeaders(
  message: JsonRpcRequest | JsonRpcNotification,
  paramHeaders: Record<string, string>,
): Headers {
  const params = message.params ?? {};
  const version = objectAt(params, '_meta')?.[VERSION_KEY];
  const headers = new Headers({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': typeof version === 'string' ? version : '2026-07-28',
  });
  if ('id' in message) headers.set('mcp-method', message.method);
  const name = nameOf(message.method, params);
  if (typeof name === 'string') headers.set('mcp-name', headerValue(name));
  for (const [suffix, value] of Object.entries(paramHeaders))
    headers.set(`mcp-param-${suffix}`, headerValue(value));
  return headers;
}

/**
 * MCP over Streamable HTTP, modern wire: every message is its own POST to one endpoint; the answer is
 * one JSON body, or an SSE stream of related notifications ending with the response. Closing that
 * stream (aborting the fetch) is how a request is cancelled on this wire.
 */
export class HttpChannel implements Channel {
  readonly kind = 'http';

  /**
   * @param url the MCP endpoint, e.g. `/mcp`
   * @param paramHeadersFor the `Mcp-Param-*` headers a tools/call needs (from the tool's x-mcp-header marks)
   */
  constructor(
    private readonly url: string,
    private readonly paramHeadersFor: (
      request: JsonRpcRequest,
    ) => Record<string, string> = () => ({}),
  ) {}

  async request(
    message: JsonRpcRequest,
    onRelated: (m: JsonRpcMessage) => void,
    signal?: AbortSignal,
  ): Promise<JsonRpcResponse> {
    const init: RequestInit = {
      method: 'POST',
      headers: standardHeaders(message, this.paramHeadersFor(message)),
      body: JSON.stringify(message),
    };
    if (signal) init.signal = signal;
    const response = await fetch(this.url, init);
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('text/event-stream') && response.body) {
      for await (const data of sseData(response.body)) {
        const received = parseMessage(data);
        if (!received) continue;
        if (isResponse(received) && received.id === message.id) return received;
        onRelated(received);
      }
      throw new Error(`the stream of request ${String(message.id)} ended without a response`);
    }
    const text = await response.text();
    const parsed = parseMessage(text);
    if (parsed && isResponse(parsed)) return parsed;
    throw new Error(`HTTP ${response.status} ${response.statusText}: ${text.slice(0, 200)}`);
  }

  async notify(message: JsonRpcNotification): Promise<void> {
    await fetch(this.url, {
      method: 'POST',
      headers: standardHeaders(message, {}),
      body: JSON.stringify(message),
    });
  }

  close(): void {
    // Nothing to close: the modern HTTP wire has no session.
  }
}

/** `Mcp-Param-*` headers for the arguments a tool's input schema marks with `x-mcp-header`. */
export function paramHeaders(
  inputSchema: JsonObject | undefined,
  args: JsonObject,
): Record<string, string> {
  const headers: Record<string, string> = {};
  const properties = objectAt(inputSchema, 'properties') ?? {};
  for (const name of Object.keys(properties)) {
    const suffix = objectAt(properties, name)?.['x-mcp-header'];
    const value = args[name];
    if (typeof suffix !== 'string' || value === undefined || value === null) continue;
    headers[suffix] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return headers;
}
