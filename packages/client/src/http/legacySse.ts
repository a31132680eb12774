import { serializeMessage, type JsonRpcMessage } from '@rondo/protocol';
import { ClientStateError, ProtocolViolationError, TransportError } from '../errors.js';
import { DEFAULT_MAX_FRAME_BYTES } from '../frames.js';
import type { ClientTransport, TransportSink } from '../transport.js';
import type { HttpAuthorizer } from './authorizer.js';
import { authorizedFetch } from './authorizedFetch.js';
import { readEvents } from './body.js';

/** How to reach a server on the HTTP+SSE transport of 2024-11-05. */
export interface SseTransportOptions {
  /** The SSE endpoint (`https://host/sse`). */
  readonly url: string | URL;
  /** Headers sent with every request (a static API key). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Authorizes every request (OAuth, a static token); see {@link HttpAuthorizer}. */
  readonly authorizer?: HttpAuthorizer;
  /** The fetch to use. Default: the global one. */
  readonly fetch?: typeof fetch;
  /** How many times a request is sent again after the authorizer obtained a new token. Default 2. */
  readonly maxAuthRetries?: number;
  /** Largest SSE event from the server (bytes). Default 16 MiB. */
  readonly maxFrameBytes?: number;
}

/**
 * Talks to a server on the HTTP+SSE transport of MCP 2024-11-05, which Streamable HTTP replaced
 * and many remote servers still speak (`"type": "sse"` in the desktop hosts' configurations): a
 * GET opens an event stream whose first `endpoint` event names where to POST messages; the
 * server's messages, answers included, arrive as `message` events on that one stream. The
 * endpoint must be on the stream's origin (a server naming another one is refused), so headers
 * and tokens go nowhere else. The stream ending ends the connection.
 */
export function sseTransport(options: SseTransportOptions): ClientTransport {
  return new LegacySseTransport(options);
}

class LegacySseTransport implements ClientTransport {
  readonly endpointKey: string;
  private readonly url: URL;
  private readonly stream = new AbortController();
  private endpoint: URL | undefined;
  private sink: TransportSink | undefined;
  private closed = false;

  constructor(private readonly options: SseTransportOptions) {
    this.url = new URL(options.url);
    this.endpointKey = `sse:${this.url.href}`;
  }

  /** Opens the stream; resolves once the server named its message endpoint. */
  async start(sink: TransportSink): Promise<void> {
    this.sink = sink;
    const response = await this.fetch(this.url, 'GET', { Accept: 'text/event-stream' });
    if (!response.ok || !(response.headers.get('content-type') ?? '').includes('event-stream')) {
      await response.body?.cancel().catch(() => undefined);
      throw new TransportError(
        `GET ${this.url.href} answered HTTP ${response.status}, not an event stream`,
        response.status,
      );
    }
    await new Promise<void>((resolve, reject) => {
      const reading = this.read(response, resolve);
      reading.then(
        () => reject(new TransportError('the event stream ended before naming its endpoint')),
        reject,
      );
      // Once started, the stream's end is the connection's.
      void reading.then(
        () => this.ended(new TransportError('the server ended the event stream')),
        (error: unknown) => this.ended(error as Error),
      );
    });
  }

  async send(message: JsonRpcMessage): Promise<void> {
    const endpoint = this.endpoint;
    if (this.closed || endpoint === undefined)
      throw new ClientStateError('the SSE transport is not open');
    const response = await this.fetch(
      endpoint,
      'POST',
      { 'Content-Type': 'application/json' },
      serializeMessage(message),
    );
    await response.body?.cancel().catch(() => undefined);
    if (!response.ok) {
      throw new TransportError(
        `the server answered HTTP ${response.status} to a message`,
        response.status,
      );
    }
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.stream.abort();
      this.sink?.closed();
    }
    return Promise.resolve();
  }

  private ended(error: Error): void {
    if (this.closed) return;
    this.closed = true;
    this.sink?.closed(error);
  }

  /** Reads the event stream to its end: the endpoint first, then the server's messages. */
  private read(response: Response, named: () => void): Promise<void> {
    const maxBytes = this.options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    // The 2024-11-05 transport does not resume a stream: the position is read and left.
    const position = { lastEventId: undefined, retryMs: undefined };
    return readEvents(response, maxBytes, position, ({ event, data }) => {
      if (event === 'endpoint') {
        const refused = this.learnEndpoint(data);
        if (refused) return refused;
        named();
      } else if (event === 'message' && data.trim() !== '') {
        this.sink?.receive(data);
      }
      return undefined;
    });
  }

  /** Takes the endpoint the server named, refusing one on another origin; the error if refused. */
  private learnEndpoint(data: string): Error | undefined {
    const base = this.url.href;
    const endpoint = URL.canParse(data.trim(), base) ? new URL(data.trim(), base) : undefined;
    if (endpoint === undefined || endpoint.origin !== this.url.origin) {
      return new ProtocolViolationError(
        `the server named a message endpoint off its origin (${this.url.origin}): refused`,
      );
    }
    this.endpoint = endpoint;
    return undefined;
  }

  private fetch(
    url: URL,
    method: string,
    extra: Record<string, string>,
    body?: string,
  ): Promise<Response> {
    const headers = { ...this.options.headers, ...extra };
    return authorizedFetch(
      url,
      { method, headers, body: body ?? null, signal: this.stream.signal, redirect: 'error' },
      {
        fetch: this.options.fetch ?? globalThis.fetch,
        authorizer: this.options.authorizer,
        maxAuthRetries: this.options.maxAuthRetries ?? 2,
      },
    );
  }
}
