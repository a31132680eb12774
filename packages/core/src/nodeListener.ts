import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A `node:http` server that is listening. */
export interface Listening {
  /** The port actually bound (useful when 0 was asked for). */
  readonly port: number;
  /** The host as it goes in a URL: an IPv6 address in brackets. */
  readonly urlHost: string;
  /** Stops listening and cuts the connections still open. */
  close(): Promise<void>;
}

/**
 * Starts `server` listening on `host:port` (0 picks a free port); rejects with the listen error
 * (say, `EADDRINUSE`). What the standalone HTTP and WebSocket servers share.
 */
export function listenOn(server: Server, port: number, host: string): Promise<Listening> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        urlHost: host.includes(':') ? `[${host}]` : host,
        close: () =>
          new Promise<void>((closed) => {
            server.close(() => closed());
            server.closeAllConnections();
          }),
      });
    });
  });
}
