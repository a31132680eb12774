import type { HostGuardPolicy, HttpRoute } from '@rondo/core';
import type { HttpRequest, HttpResponse } from './edge.js';
import { reject } from './reply.js';
import { guardHost } from './security.js';

/**
 * The paths a server's extensions serve beside the MCP endpoint (`Extension.routes`, a
 * well-known document say), found by exact path. A route answers every method itself and decides
 * its own CORS: its documents are public, so the MCP endpoint's Origin allow-list does not apply.
 */
export class ExtensionRoutes {
  private readonly byPath: ReadonlyMap<string, HttpRoute>;

  constructor(
    routes: readonly HttpRoute[],
    private readonly mcpPath: string,
    private readonly guard: HostGuardPolicy,
    private readonly onError: (error: unknown) => void,
  ) {
    const resolve = (path: string) =>
      path.startsWith('./') ? `${mcpPath.replace(/\/+$/, '')}${path.slice(1)}` : path;
    this.byPath = new Map(routes.map((route) => [resolve(route.path), route]));
  }

  /** The paths served, for edges that register routes by path. */
  get paths(): readonly string[] {
    return [...this.byPath.keys()];
  }

  /**
   * Serves `pathname` if a route has it; false otherwise. A Host the guard refuses gets the MCP
   * endpoint's refusal: a document naming this server's address answers only where it does.
   */
  serve(pathname: string, req: HttpRequest, res: HttpResponse): boolean {
    const route = this.byPath.get(pathname);
    if (route === undefined) return false;
    const verdict = guardHost(req, this.guard);
    if (!verdict.ok) {
      reject(res, verdict.status, verdict.reason);
      return true;
    }
    const request = { method: req.method ?? 'GET', headers: req.headers, mcpPath: this.mcpPath };
    Promise.resolve()
      .then(() => route.serve(request))
      .then(
        (reply) => {
          if (res.headersSent || res.destroyed) return;
          res.writeHead(reply.status, { ...reply.headers });
          res.end(reply.body);
        },
        (error: unknown) => {
          this.onError(error);
          reject(res, 500, 'Internal Server Error');
        },
      );
    return true;
  }
}
