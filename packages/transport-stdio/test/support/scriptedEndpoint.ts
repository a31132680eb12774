import type { Connection, Endpoint, Exchange, Peer } from '@rondo/core';
import { isRequest, resultResponse, type JsonRpcMessage } from '@rondo/protocol';

/**
 * An endpoint with a few scripted methods, so the transport is tested without any era adapter:
 * `echo` answers at once with its params, `slow` after `params.ms`, `chatty` sends two notifications
 * first, `hang` never answers until aborted, `announce` writes on the peer channel; notifications and
 * responses end their exchange with nothing.
 */
export class ScriptedEndpoint implements Endpoint {
  connections = 0;
  closedConnections = 0;
  readonly aborted: (string | number)[] = [];
  peer: Peer | undefined;

  connect(peer: Peer): Connection {
    this.connections += 1;
    this.peer = peer;
    let inFlight = 0;
    return {
      receive: (message, exchange) => {
        inFlight += 1;
        const done = (answer?: JsonRpcMessage) => {
          inFlight -= 1;
          exchange.end(answer);
        };
        this.handle(message, exchange, done);
      },
      stateful: false,
      get inFlight() {
        return inFlight;
      },
      close: () => {
        this.closedConnections += 1;
      },
    };
  }

  ready = async () => {};
  close = async () => {};

  private handle(
    message: JsonRpcMessage,
    exchange: Exchange,
    done: (answer?: JsonRpcMessage) => void,
  ) {
    if (!isRequest(message)) return done();
    const params = message.params ?? {};
    switch (message.method) {
      case 'echo':
        return done(resultResponse(message.id, params));
      case 'slow':
        setTimeout(() => done(resultResponse(message.id, { slept: params.ms })), Number(params.ms));
        return;
      case 'chatty':
        exchange.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { n: 1 } });
        exchange.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { n: 2 } });
        return done(resultResponse(message.id, {}));
      case 'announce':
        this.peer?.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
        return done(resultResponse(message.id, {}));
      case 'hang':
        exchange.cancellation.onAbort(() => {
          this.aborted.push(message.id);
          done();
        });
        return;
      case 'throw':
        throw new Error('scripted failure');
      default:
        return done({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'nope' } });
    }
  }
}
