import type { Endpoint } from '@rondo/core';
import { MessageChannel } from '@rondo/core/internal';
import { serializeMessage, type JsonRpcMessage } from '@rondo/protocol';
import type { RawData, WebSocket } from 'ws';
import { FlowControl } from './flowControl.js';
import { startKeepAlive } from './keepAlive.js';
import type { Access } from './handshake.js';
import { CLOSE_POLICY_VIOLATION, CLOSE_UNSUPPORTED_DATA, type ResolvedOptions } from './options.js';
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
    who: {
      /** Who the upgrade's bearer token acts for, when the transport requires one. */
      access?: Access | undefined;
      /** Who the socket comes from (its address): the key of its fair shares without a principal. */
      client: string;
    },
  ) {
    const { access, client } = who;
    this.flow = new FlowControl(socket, options.backpressure, () => this.schedulePump());
    this.channel = new MessageChannel(endpoint, {
      write: (message) => this.write(message),
      ...(access ? { principal: access.principal } : {}),
      client,
    });
    const stopExpiry = access ? closeAtExpiry(socket, access.expiresAt) : undefined;
    this.stopKeepAlive = options.keepAlive
      ? startKeepAlive(socket, options.keepAlive)
      : () => undefined;
    socket.on('message', (data, isBinary) => this.onFrame(data, isBinary));
    // An 'error' is always followed by 'close', where the cleanup happens.
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => {
      socket.once('close', () => {
        stopExpiry?.();
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

/** The longest a timer can wait (about 24.8 days); a later expiry is checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Closes the socket (1008) when its access token expires, as the HTTP transport refuses each
 * request with an expired token; returns the function that stops waiting.
 */
function closeAtExpiry(socket: WebSocket, expiresAt: number | undefined): () => void {
  if (expiresAt === undefined) return () => undefined;
  let timer: NodeJS.Timeout | undefined;
  const wait = (): void => {
    const left = expiresAt * 1000 - Date.now();
    if (left <= 0) return socket.close(CLOSE_POLICY_VIOLATION, 'The access token has expired');
    timer = setTimeout(wait, Math.min(left, MAX_TIMER_MS));
    timer.unref();
  };
  wait();
  return () => clearTimeout(timer);
}
