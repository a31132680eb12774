import type { WebSocket } from 'ws';
import type { KeepAliveOptions } from './options.js';

/**
 * Pings the peer every `intervalMs` and drops it when a pong has not come back within `timeoutMs`,
 * so a peer that vanished without a close frame (a laptop lid, a dead NAT mapping) frees its
 * connection and aborts its handlers. Returns the function that stops the timers.
 */
export function startKeepAlive(socket: WebSocket, options: Required<KeepAliveOptions>): () => void {
  let deadline: NodeJS.Timeout | undefined;
  const onPong = (): void => {
    clearTimeout(deadline);
    deadline = undefined;
  };
  socket.on('pong', onPong);
  const interval = setInterval(() => {
    if (deadline !== undefined || socket.readyState !== socket.OPEN) return;
    deadline = setTimeout(() => socket.terminate(), options.timeoutMs);
    deadline.unref();
    socket.ping();
  }, options.intervalMs);
  interval.unref();
  return () => {
    clearInterval(interval);
    clearTimeout(deadline);
    socket.off('pong', onPong);
  };
}
