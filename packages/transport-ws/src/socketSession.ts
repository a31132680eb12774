import type { Endpoint } from '@rondo/core';
import { MessageChannel } from '@rondo/core/internal';
import { serializeMessage, type JsonRpcMessage } from '@rondo/protocol';
import type { RawData, WebSocket } from 'ws';
import { FlowControl } from './flowControl.js';
import { startKeepAlive } from './keepAlive.js';
import { CLOSE_UNSUPPORTED_DATA, type ResolvedOptions } from './options.js';
import type { SocketStats } from './stats.js';

/**
 * One WebSocket bound to one endpoint connection. Each text frame is one JSON-RPC message, handed
 * to the connection with an exchange whose messages go back on the same socket; the connection's
 * own messages (a session's requests and notifications) go there too. When the socket closes,
 * every open exchange is aborted and the connection is closed.
 */
export class SocketSession {
  private readonly channel: MessageChannel;
  /** Frames decoded but not yet handled, in arrival order (see {@link schedulePump}). */
  private readonly held: { data: RawData; isBinary: boolean }[] = [];
  private pumpScheduled = false;
  private readonly flow: FlowControl;
  private readonly stopKeepAlive: () => void;
  /** Resolves once the socket has closed and everything it held is released. */
  readonly closed: Promise<void>;

  constructor(
    private readonly socket: WebSocket,
    endpoint: Endpoint,
    options: ResolvedOptions,
    onClosed: (session: SocketSession) => void,
  ) {
    this.flow = new FlowControl(socket, options.backpressure, () => this.schedulePump());
    this.channel = new MessageChannel(endpoint, { write: (message) => this.write(message) });
    this.stopKeepAlive = options.keepAlive
      ? startKeepAlive(socket, options.keepAlive)
      : () => undefined;
    socket.on('message', (data, isBinary) => this.onFrame(data, isBinary));
    // An 'error' is always followed by 'close', where the cleanup happens.
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => {
      socket.once('close', () => {
        this.release();
        onClosed(this);
        resolve();
      });
    });
  }

  /** See {@link SocketStats}. */
  stats(): SocketStats {
    return {
      inFlight: this.channel.connection.inFlight,
      openExchanges: this.channel.exchanges.size,
      bufferedBytes: this.socket.bufferedAmount,
      peakBufferedBytes: this.flow.peakBufferedBytes,
      paused: this.flow.paused,
    };
  }

  /** Closes the socket with a close frame; cleanup follows from the 'close' event. */
  close(code: number, reason: string): void {
    this.socket.close(code, reason);
  }

  /** Cuts the socket without a close handshake. */
  terminate(): void {
    this.socket.terminate();
  }

  private onFrame(data: RawData, isBinary: boolean): void {
    this.held.push({ data, isBinary });
    this.schedulePump();
  }

  /**
   * Held frames are handled in event-loop turns of {@link FlowControl.frameBudget} frames, not as
   * fast as `ws` decodes them: the answers of a turn (usually settled in microtasks) are written
   * before the next turn, so a burst of requests read in one chunk stops near the pause mark.
   */
  private schedulePump(): void {
    if (this.pumpScheduled || this.held.length === 0) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      if (this.socket.readyState !== this.socket.OPEN) return;
      for (let budget = this.flow.frameBudget(); budget > 0 && !this.flow.paused; budget--) {
        const frame = this.held.shift();
        if (!frame) break;
        this.flow.frameHandled();
        this.handleFrame(frame.data, frame.isBinary);
      }
      if (!this.flow.paused) this.schedulePump();
    });
  }

  private handleFrame(data: RawData, isBinary: boolean): void {
    if (isBinary) {
      this.socket.close(
        CLOSE_UNSUPPORTED_DATA,
        'Binary frames are not accepted: send JSON-RPC as text frames',
      );
      return;
    }
    this.channel.receiveText(frameText(data));
  }

  private write(message: JsonRpcMessage): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    const frame = serializeMessage(message);
    this.socket.send(frame, this.afterFlush);
    this.flow.afterWrite(frame.length);
  }

  /** One callback for every frame sent, rather than a closure per frame. */
  private readonly afterFlush = (): void => this.flow.afterFlush();

  private release(): void {
    this.stopKeepAlive();
    this.held.length = 0;
    this.channel.close(new Error('The WebSocket closed'));
  }
}

function frameText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return (Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');
}
