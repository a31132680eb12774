import { serializeMessage, type JsonRpcMessage, type RequestId } from '@rondo/protocol';
import type { Connection, Endpoint, Exchange } from '@rondo/core';
import { LazyAbortController } from '@rondo/core/internal';
import { ClientStateError } from '../errors.js';
import type { ClientTransport, SendContext, TransportSink } from '../transport.js';

/**
 * Connects to a Rondo server in the same process: no port, no child. `endpoint` is what
 * `createEndpoint(server, { modern, legacy })` (or the fixture's endpoint) returns. Messages pass
 * through JSON text both ways, as on a wire, so the client checks them as it checks any server's.
 */
export function inMemoryTransport(endpoint: Endpoint): ClientTransport {
  return new InMemoryTransport(endpoint);
}

class InMemoryTransport implements ClientTransport {
  readonly endpointKey = 'memory:';
  private connection: Connection | undefined;
  private sink: TransportSink | undefined;
  private readonly exchanges = new Set<LazyAbortController>();

  constructor(private readonly endpoint: Endpoint) {}

  async start(sink: TransportSink): Promise<void> {
    await this.endpoint.ready();
    this.sink = sink;
    this.connection = this.endpoint.connect({ send: (message) => this.deliver(message) });
  }

  send(message: JsonRpcMessage, context: SendContext = {}): Promise<void> {
    const connection = this.connection;
    if (!connection) return Promise.reject(new ClientStateError('the transport is not started'));
    const controller = new LazyAbortController();
    this.exchanges.add(controller);
    const headers = lowerCased(context.headers);
    const related = 'id' in message && 'method' in message ? message.id : undefined;
    const exchange: Exchange = {
      send: (out) => this.deliver(out, related),
      end: (out) => {
        this.exchanges.delete(controller);
        if (out) this.deliver(out);
      },
      cancellation: controller,
      ...(headers ? { headers } : {}),
    };
    // The copy stands for the wire: the server never shares an object with the caller.
    connection.receive(JSON.parse(serializeMessage(message)) as JsonRpcMessage, exchange);
    return Promise.resolve();
  }

  close(): Promise<void> {
    for (const controller of this.exchanges) controller.abort();
    this.exchanges.clear();
    this.connection?.close();
    this.connection = undefined;
    const sink = this.sink;
    this.sink = undefined;
    sink?.closed();
    return Promise.resolve();
  }

  /** Hands `message` to the client; `related` names the request whose exchange sent it. */
  private deliver(message: JsonRpcMessage, related?: RequestId): void {
    const sink = this.sink;
    if (!sink) return;
    const text = serializeMessage(message);
    // Answers arrive on a later turn, as from a socket, so a caller's await order is the wire's.
    queueMicrotask(() => sink.receive(text, related));
  }
}

function lowerCased(
  headers: Readonly<Record<string, string>> | undefined,
): Record<string, string> | undefined {
  if (!headers) return undefined;
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
