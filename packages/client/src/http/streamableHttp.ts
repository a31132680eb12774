import { isRequest, serializeMessage, type JsonRpcMessage, type RequestId } from '@rondo/protocol';
import { ClientStateError, TransportError } from '../errors.js';
import { DEFAULT_MAX_FRAME_BYTES } from '../frames.js';
import type { ClientTransport, SendContext, TransportSink } from '../transport.js';
import type { HttpAuthorizer } from './authorizer.js';
import { authorizedFetch } from './authorizedFetch.js';
import { readCappedText, readEventStream, type StreamPosition } from './body.js';
import { StandaloneStream } from './standaloneStream.js';

/** How to reach a Streamable HTTP endpoint. */
export interface HttpTransportOptions {
  /** The MCP endpoint (`https://host/mcp`). */
  readonly url: string | URL;
  /** Headers sent with every request (a static API key, a tenant id). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Authorizes every request (OAuth, a static token); see {@link HttpAuthorizer}. */
  readonly authorizer?: HttpAuthorizer;
  /** The fetch to use. Default: the global one. */
  readonly fetch?: typeof fetch;
  /** How many times a request is sent again after the authorizer obtained a new token. Default 2. */
  readonly maxAuthRetries?: number;
  /** Largest JSON body or SSE event from the server (bytes). Default 16 MiB. */
  readonly maxFrameBytes?: number;
  /** Opens the standalone GET stream in a legacy session. Default true. */
  readonly standaloneStream?: boolean;
  /** Reconnections of one SSE stream in a row before giving up. Default 5. */
  readonly maxReconnects?: number;
  /** Delay before reconnecting when the server named none (ms). Default 1,000. */
  readonly reconnectDelayMs?: number;
}

/** A transport to a Streamable HTTP endpoint; it adds the session id it was given. */
export interface HttpClientTransport extends ClientTransport {
  /** The `Mcp-Session-Id` the server gave, if any. */
  readonly sessionId: string | undefined;
}

/**
 * Talks to a Streamable HTTP endpoint: each message is a POST answered with JSON or an SSE stream
 * (resumed with `Last-Event-ID` when it ends before the answer), a legacy session's standalone
 * GET stream carries the server's own messages, and `close()` ends the session with DELETE.
 */
export function httpTransport(options: HttpTransportOptions): HttpClientTransport {
  return new StreamableHttpTransport(options);
}

class StreamableHttpTransport implements HttpClientTransport {
  readonly endpointKey: string;
  sessionId: string | undefined;
  private readonly url: URL;
  private sink: TransportSink | undefined;
  private protocolVersion: string | undefined;
  private readonly inFlight = new Set<AbortController>();
  private standalone: StandaloneStream | undefined;
  private closed = false;

  constructor(private readonly options: HttpTransportOptions) {
    this.url = new URL(options.url);
    this.endpointKey = `http:${this.url.href}`;
  }

  start(sink: TransportSink): Promise<void> {
    this.sink = sink;
    return Promise.resolve();
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  listen(): void {
    if (this.options.standaloneStream === false || this.standalone || this.closed) return;
    this.standalone = new StandaloneStream({
      open: (lastEventId, signal) => this.get(lastEventId, signal),
      read: (response, position) => this.readStream(response, position),
      maxReconnects: this.options.maxReconnects ?? 5,
      reconnectDelayMs: this.options.reconnectDelayMs ?? 1000,
    });
    this.standalone.run();
  }

  async send(message: JsonRpcMessage, context: SendContext = {}): Promise<void> {
    const sink = this.sink;
    if (!sink || this.closed) throw new ClientStateError('the HTTP transport is not open');
    const controller = new AbortController();
    const abort = (): void => controller.abort(context.signal?.reason);
    context.signal?.addEventListener('abort', abort, { once: true });
    this.inFlight.add(controller);
    try {
      await this.post(message, context, controller.signal);
    } finally {
      context.signal?.removeEventListener('abort', abort);
      this.inFlight.delete(controller);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const controller of this.inFlight) controller.abort();
    this.standalone?.stop();
    if (this.sessionId !== undefined) {
      await this.fetch('DELETE', {}, AbortSignal.timeout(5000))
        .then((response) => response.body?.cancel())
        .catch(() => undefined);
    }
    this.sink?.closed();
  }

  private async post(
    message: JsonRpcMessage,
    context: SendContext,
    signal: AbortSignal,
  ): Promise<void> {
    const response = await this.fetch(
      'POST',
      {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        ...context.headers,
      },
      signal,
      serializeMessage(message),
    );
    const session = response.headers.get('mcp-session-id');
    if (session !== null) this.sessionId = session;
    const id = isRequest(message) ? message.id : undefined;
    if (response.status === 202 || response.status === 204) {
      await response.body?.cancel();
      return;
    }
    const answered = await this.readAnswer(response, id);
    if (!response.ok && answered === undefined) {
      throw new TransportError(`the server answered HTTP ${response.status}`, response.status);
    }
    if (id !== undefined && answered !== id) {
      throw new TransportError('the server ended the response without answering the request');
    }
  }

  /** Reads a POST's answer; resolves with the id of the response it carried, if any. */
  private async readAnswer(
    response: Response,
    id: RequestId | undefined,
  ): Promise<RequestId | undefined> {
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('text/event-stream')) return this.followStream(response, id);
    if (!type.includes('json')) {
      await response.body?.cancel();
      return undefined;
    }
    const text = await readCappedText(response, this.maxFrameBytes);
    return text.trim() === '' ? undefined : this.sink?.receive(text);
  }

  /** Reads an answer's SSE stream, resuming it with GET while it ends before the answer. */
  private async followStream(
    first: Response,
    id: RequestId | undefined,
  ): Promise<RequestId | undefined> {
    const position: StreamPosition = { lastEventId: undefined, retryMs: undefined };
    let answered = await this.readStream(first, position, id);
    for (let attempt = 0; answered === undefined && id !== undefined; attempt += 1) {
      if (position.lastEventId === undefined || attempt >= (this.options.maxReconnects ?? 5)) break;
      await delay(position.retryMs ?? this.options.reconnectDelayMs ?? 1000);
      if (this.closed) break;
      const resumed = await this.get(position.lastEventId, undefined);
      if (!resumed.ok) {
        await resumed.body?.cancel();
        throw new TransportError(
          `resuming the stream failed with HTTP ${resumed.status}`,
          resumed.status,
        );
      }
      answered = await this.readStream(resumed, position, id);
    }
    return answered;
  }

  private async readStream(
    response: Response,
    position: StreamPosition,
    id?: RequestId,
  ): Promise<RequestId | undefined> {
    let answered: RequestId | undefined;
    try {
      await readEventStream(response, this.maxFrameBytes, position, (data) => {
        const got = this.sink?.receive(data, id);
        if (got === undefined || got !== id) return false;
        answered = got;
        return true;
      });
    } catch (error) {
      if (this.closed) return answered;
      if (error instanceof TransportError) throw error;
      // A violation (an oversized event) is the server's fault; a broken connection is resumable.
      if ((error as Error).name === 'ProtocolViolationError') this.sink?.refused(error as Error);
    }
    return answered;
  }

  private get(lastEventId: string | undefined, signal: AbortSignal | undefined): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'text/event-stream' };
    if (lastEventId !== undefined) headers['Last-Event-ID'] = lastEventId;
    return this.fetch('GET', headers, signal);
  }

  private fetch(
    method: string,
    extra: Record<string, string>,
    signal: AbortSignal | undefined,
    body?: string,
  ): Promise<Response> {
    const headers: Record<string, string> = { ...this.options.headers };
    if (this.protocolVersion !== undefined) headers['MCP-Protocol-Version'] = this.protocolVersion;
    if (this.sessionId !== undefined) headers['Mcp-Session-Id'] = this.sessionId;
    Object.assign(headers, extra);
    return authorizedFetch(
      this.url,
      { method, headers, body: body ?? null, signal: signal ?? null },
      {
        fetch: this.options.fetch ?? globalThis.fetch,
        authorizer: this.options.authorizer,
        maxAuthRetries: this.options.maxAuthRetries ?? 2,
      },
    );
  }

  private get maxFrameBytes(): number {
    return this.options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
