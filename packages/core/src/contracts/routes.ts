/** A path an extension serves over HTTP, framework-free: the HTTP transports call it. */
export interface HttpRoute {
  /**
   * The exact path (`/.well-known/...`), without query; a path starting with `./` is beside the
   * MCP endpoint (`./server-card` is `/mcp/server-card` for an endpoint at `/mcp`).
   */
  readonly path: string;
  /** Answers one request for the path. */
  serve(request: RouteRequest): RouteReply | Promise<RouteReply>;
}

/** What a route sees of an HTTP request. */
export interface RouteRequest {
  readonly method: string;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The path the transport serves MCP on (`/mcp`), so a document can point at it. */
  readonly mcpPath: string;
}

/** A route's answer; the transport writes it as it is. */
export interface RouteReply {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}
