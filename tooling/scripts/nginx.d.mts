// Types of nginx.mjs, for the tests that import it through test/support/nginx.ts.

/** The site file of the deploy kit, included in nginx's http context. */
export declare const DEPLOY_SITE: string;

/** A deploy site file nginx.mjs no longer knows how to point at local replicas. */
export declare class NginxTemplateError extends Error {}

/** The deploy site with its upstream pointed at `upstreams` and its server listening on `listen`. */
export declare function renderSite(
  template: string,
  options: { upstreams: readonly string[]; listen: string },
): string;

/** The main configuration around the site: one worker, every path inside `prefix`. */
export declare function renderMainConfig(prefix: string): string;

/** The nginx binary: RONDO_NGINX, Debian's /usr/sbin/nginx, or `nginx` on the PATH. */
export declare function nginxBinary(env?: NodeJS.ProcessEnv): string;

/** A free TCP port on 127.0.0.1, released again for the caller to bind. */
export declare function freePort(): Promise<number>;

/** A running nginx. */
export interface RunningNginx {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  pid: number;
  /** The folder holding its configuration, pid file and logs (access.log, error.log). */
  prefix: string;
  /** Ends nginx and removes its folder. */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts nginx on 127.0.0.1 in front of `upstreams` (ports on 127.0.0.1). */
export declare function startNginx(options: {
  upstreams: readonly number[];
  port?: number;
  binary?: string;
}): Promise<RunningNginx>;
