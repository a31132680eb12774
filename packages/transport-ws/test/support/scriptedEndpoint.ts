import type { Connection, Endpoint, Exchange, Peer } from '@rondo/core';
import { isRequest, type JsonRpcMessage, type JsonRpcRequest } from '@rondo/protocol';

/** What the scripted endpoint observed, for assertions. */
export interface EndpointLog {
  received: JsonRpcMessage[];
  aborted: string[];
  connectionsOpened: number;
  connectionsClosed: number;
  connections: ScriptedConnection[];
}

/**
 * An endpoint that knows no MCP at all, only a few test methods, so transport tests stay apart from
 * the era adapters: `echo`, `big` (a result of `params.bytes` characters), `wait` (never ends, records
 * its abort), `progress` (two messages on the exchange, then the end), `flood` (`params.count` peer
 * messages of `params.bytes` characters), `throw`.
 */
export function scriptedEndpoint(): { endpoint: Endpoint; log: EndpointLog } {
  const log: EndpointLog = {
    received: [],
    aborted: [],
    connectionsOpened: 0,
    connectionsClosed: 0,
    connections: [],
  };
  const endpoint: Endpoint = {
    connect: (peer) => {
      log.connectionsOpened += 1;
      const connection = new ScriptedConnection(peer, log);
      log.connections.push(connection);
      return connection;
    },
    ready: async () => undefined,
    close: async () => undefined,
  };
  return { endpoint, log };
}

class ScriptedConnection implements Connection {
  readonly stateful = false;
  private waiting = 0;

  constructor(
    private readonly peer: Peer,
    private readonly log: EndpointLog,
  ) {}

  get inFlight(): number {
    return this.waiting;
  }

  receive(message: JsonRpcMessage, exchange: Exchange): void {
    this.log.received.push(message);
    if (!isRequest(message)) return exchange.end();
    const answer = (result: Record<string, unknown>): void =>
      exchange.end({ jsonrpc: '2.0', id: message.id, result });
    switch (message.method) {
      case 'echo':
        return answer({ params: message.params ?? {} });
      case 'big':
        return answer({ text: 'x'.repeat(Number(message.params?.bytes ?? 0)) });
      case 'progress':
        exchange.send({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progress: 1 },
        });
        exchange.send({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progress: 2 },
        });
        return answer({ done: true });
      case 'wait':
        return this.wait(message, exchange);
      case 'flood':
        for (let i = 0; i < Number(message.params?.count ?? 0); i++) {
          this.peer.send({
            jsonrpc: '2.0',
            method: 'flood',
            params: { i, text: 'y'.repeat(Number(message.params?.bytes)) },
          });
        }
        return answer({});
      case 'throw':
        throw new Error('scripted failure');
      default:
        return exchange.end({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32601, message: 'Method not found' },
        });
    }
  }

  close(): void {
    this.log.connectionsClosed += 1;
  }

  private wait(message: JsonRpcRequest, exchange: Exchange): void {
    this.waiting += 1;
    exchange.cancellation.onAbort(() => {
      this.waiting -= 1;
      this.log.aborted.push(String(message.id));
      exchange.end();
    });
  }
}
