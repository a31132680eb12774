// What `serve` (serve.ts) starts, below both it and the operator's endpoints (operationsServing.ts).

/** The transports `serve` can start. */
export type Transport = 'stdio' | 'http' | 'ws';

/** Every {@link Transport}, in the order a usage line lists them. */
export const TRANSPORTS: readonly Transport[] = ['stdio', 'http', 'ws'];

/** A server `serve` started on the transport `T`. */
export interface RunningServer<T extends Transport = Transport> {
  /** The transport it serves on. */
  readonly transport: T;
  /** The URL clients connect to (http, ws); undefined on stdio. */
  readonly url: T extends 'stdio' ? undefined : string;
  /**
   * Resolves once the server has stopped: on stdio when input has ended and the requests in
   * flight were answered, on every transport after `close`. An endpoint the caller handed
   * over stays open; one `serve` composed from a server is closed (its providers too) first.
   */
  readonly closed: Promise<void>;
  /** Stops serving (aborting work in flight) and resolves like `closed`. */
  close(): Promise<void>;
  /** Where the operator's endpoints listen on their own (`operations.adminPort`), if they do. */
  readonly adminUrl?: string;
}
