/** Where a transport's standalone server listens. */
export interface ListenOptions {
  /** The interface to bind. Default `127.0.0.1`: reachable from this machine only. */
  host?: string;
  /** The port; 0 (the default) picks a free one, read it from the handle. */
  port?: number;
}

/** A transport's standalone server, listening. */
export interface ListeningServer {
  /** The URL clients connect to, path included (`http://127.0.0.1:43817/mcp`, `ws://…/ws`). */
  readonly url: string;
  /** The port actually bound. */
  readonly port: number;
  /** Closes the transport's connections and stops listening. The endpoint stays open. */
  close(): Promise<void>;
}
