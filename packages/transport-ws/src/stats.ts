/** A snapshot of one open socket, for monitoring and tests. */
export interface SocketStats {
  /** Requests the server is handling for this socket now. */
  inFlight: number;
  /** Inbound messages whose exchange has not ended (includes open subscriptions). */
  openExchanges: number;
  /** Bytes waiting to be sent to the peer. */
  bufferedBytes: number;
  /** The most bytes that ever waited at once. */
  peakBufferedBytes: number;
  /** True while reading is paused because the peer is not reading. */
  paused: boolean;
}

/** Totals over the open sockets, for monitoring and tests. */
export interface WebSocketStats {
  connections: number;
  /** Requests being handled, over all sockets. */
  inFlight: number;
  /** Exchanges not yet ended (requests in flight, open subscriptions). */
  openExchanges: number;
  /** Bytes waiting to be sent, over all sockets. */
  bufferedBytes: number;
  /** The largest backlog any socket ever had. */
  peakBufferedBytes: number;
  /** Sockets whose reading is paused because their peer is not reading. */
  pausedConnections: number;
}

/**
 * Sums the stats of the open sockets. Typed by shape rather than as `SocketSession`, so this file's
 * declarations (part of the public surface) never reach `ws`'s types.
 */
export function totals(sessions: Iterable<{ stats(): SocketStats }>): WebSocketStats {
  const sum: WebSocketStats = {
    connections: 0,
    inFlight: 0,
    openExchanges: 0,
    bufferedBytes: 0,
    peakBufferedBytes: 0,
    pausedConnections: 0,
  };
  for (const session of sessions) {
    const one = session.stats();
    sum.connections += 1;
    sum.inFlight += one.inFlight;
    sum.openExchanges += one.openExchanges;
    sum.bufferedBytes += one.bufferedBytes;
    sum.peakBufferedBytes = Math.max(sum.peakBufferedBytes, one.peakBufferedBytes);
    if (one.paused) sum.pausedConnections += 1;
  }
  return sum;
}
