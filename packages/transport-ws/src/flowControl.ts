import type { WebSocket } from 'ws';
import type { BackpressureOptions } from './options.js';

/** The most frames handled in one event-loop turn, however small their answers. */
const MAX_FRAMES_PER_TURN = 256;

/**
 * Backpressure for one socket. While more than `pauseAboveBytes` wait to be sent, the socket stops
 * reading the peer's frames, so a peer that sends requests but never reads the answers stops
 * producing work; past `closeAboveBytes` (notifications keep coming without requests) the socket is
 * dropped. Either way the bytes held for one peer stay bounded. Pausing the socket stops reads from
 * the network only; frames `ws` already decoded still arrive, so the owner holds those and asks
 * {@link frameBudget} how many to handle per turn.
 */
export class FlowControl {
  private pausedForPeer = false;
  private highestBuffered = 0;
  private bytesWritten = 0;
  private framesHandled = 0;

  constructor(
    private readonly socket: WebSocket,
    private readonly limits: Required<BackpressureOptions>,
    private readonly onResume: () => void,
  ) {}

  /** True while reading is paused because the peer is not reading. */
  get paused(): boolean {
    return this.pausedForPeer;
  }

  /** The largest number of bytes that waited to be sent at once on this socket. */
  get peakBufferedBytes(): number {
    return this.highestBuffered;
  }

  /**
   * How many held frames to handle in this turn: as many as the room left below the pause mark
   * holds at the average output per frame so far, so that a burst read in one chunk cannot
   * overshoot the mark by much; 1 until there is an average, 0 while paused.
   */
  frameBudget(): number {
    if (this.pausedForPeer) return 0;
    if (this.framesHandled === 0) return 1;
    const room = this.limits.pauseAboveBytes - this.socket.bufferedAmount;
    const perFrame = Math.max(1, this.bytesWritten / this.framesHandled);
    return Math.min(MAX_FRAMES_PER_TURN, Math.max(1, Math.floor(room / perFrame)));
  }

  /** Counts one handled inbound frame, for {@link frameBudget}. */
  frameHandled(): void {
    this.framesHandled += 1;
  }

  /** Called after each frame of `bytes` is queued. */
  afterWrite(bytes: number): void {
    this.bytesWritten += bytes;
    const buffered = this.socket.bufferedAmount;
    this.highestBuffered = Math.max(this.highestBuffered, buffered);
    if (buffered > this.limits.closeAboveBytes) {
      // The peer cannot receive a close frame behind the backlog, so the socket is cut.
      this.socket.terminate();
    } else if (buffered > this.limits.pauseAboveBytes && !this.pausedForPeer) {
      this.pausedForPeer = true;
      this.socket.pause();
    }
  }

  /** Called when a queued frame has been handed to the operating system. */
  afterFlush(): void {
    if (this.pausedForPeer && this.socket.bufferedAmount <= this.limits.pauseAboveBytes) {
      this.pausedForPeer = false;
      this.socket.resume();
      this.onResume();
    }
  }
}
