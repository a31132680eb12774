import type { Connection, Disposition, Endpoint, Exchange, Peer } from '@rondo/core';
import {
  errorResponse,
  isRequest,
  resultResponse,
  type JsonRpcMessage,
  type JsonRpcResponse,
} from '@rondo/protocol';

/** A scripted endpoint that exercises the transport contract without any MCP era behind it. */
export interface FakeEndpoint extends Endpoint {
  connections: FakeConnection[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A connection of the fake endpoint: its behaviour is picked by the request's method. */
export class FakeConnection implements Connection {
  stateful = false;
  /** As a 2025-11-25 session; `initialize` with `{ resumes: false }` plays an older client. */
  resumesStreams = true;
  inFlight = 0;
  closed = false;
  aborted: string[] = [];
  received: JsonRpcMessage[] = [];
  private answers = new Map<string | number, (response: JsonRpcResponse) => void>();

  constructor(readonly peer: Peer) {}

  receive(message: JsonRpcMessage, exchange: Exchange): void {
    this.received.push(message);
    if (!isRequest(message)) {
      if (!('method' in message)) this.answers.get(message.id ?? '')?.(message);
      exchange.end();
      return;
    }
    this.inFlight += 1;
    const done = (final: JsonRpcMessage | undefined, disposition?: Disposition) => {
      this.inFlight -= 1;
      exchange.end(final, disposition);
    };
    const { id, method, params = {} } = message;
    switch (method) {
      case 'initialize':
        this.stateful = true;
        this.resumesStreams = params.resumes !== false;
        return done(resultResponse(id, { protocolVersion: '2025-11-25' }));
      case 'initializeStreaming':
        this.stateful = true;
        exchange.send({ jsonrpc: '2.0', method: 'notifications/message', params: {} });
        return done(resultResponse(id, { protocolVersion: '2025-11-25' }));
      case 'echo':
        return done(
          resultResponse(id, {
            params,
            principal: exchange.principal?.id ?? null,
            sessionId: exchange.sessionId ?? null,
          }),
        );
      case 'fail':
        return done(
          errorResponse(id, Number(params.code), 'scripted failure', params.data),
          params.disposition as Disposition | undefined,
        );
      case 'stream':
        void (async () => {
          for (let step = 1; step <= Number(params.steps ?? 3); step += 1) {
            const padding = params.size ? { message: 'x'.repeat(Number(params.size)) } : {};
            exchange.send({
              jsonrpc: '2.0',
              method: 'notifications/progress',
              params: { progress: step, ...padding },
            });
            await sleep(Number(params.delayMs ?? 5));
          }
          done(resultResponse(id, { streamed: true }));
        })();
        return;
      case 'hang': {
        const cancelled = () => {
          this.aborted.push(String(id));
          done(errorResponse(id, -32800, 'cancelled'));
        };
        if (params.sendFirst) exchange.send({ jsonrpc: '2.0', method: 'notifications/started' });
        // The transport may refuse the stream that first message opened, cancelling at once.
        if (exchange.cancellation.aborted) return cancelled();
        exchange.cancellation.onAbort(cancelled);
        return;
      }
      case 'ask': {
        const askId = `ask-${String(id)}`;
        this.answers.set(askId, (response) =>
          done(resultResponse(id, { answer: 'result' in response ? response.result : null })),
        );
        exchange.send({ jsonrpc: '2.0', id: askId, method: 'elicitation/create', params: {} });
        return;
      }
      case 'closeStream':
        // SSE polling: one message, the response closed, the answer after `delayMs`.
        exchange.send({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 1 } });
        exchange.closeStream?.();
        setTimeout(() => done(resultResponse(id, { resumed: true })), Number(params.delayMs ?? 20));
        return;
      case 'closeSessionStream':
        this.peer.closeStream?.();
        return done(resultResponse(id, {}));
      case 'notifyPeer':
        for (let n = 1; n <= Number(params.count ?? 1); n += 1)
          this.peer.send({
            jsonrpc: '2.0',
            method: 'notifications/message',
            params: { data: params.text ?? n },
          });
        return done(resultResponse(id, {}));
      default:
        return done(errorResponse(id, -32601, `Method not found: ${method}`));
    }
  }

  close(): void {
    this.closed = true;
  }
}

/** Builds the fake endpoint. */
export function fakeEndpoint(): FakeEndpoint {
  const connections: FakeConnection[] = [];
  return {
    connections,
    connect(peer) {
      const connection = new FakeConnection(peer);
      connections.push(connection);
      return connection;
    },
    ready: async () => undefined,
    close: async () => undefined,
  };
}
