import type { HttpAuthorizer } from '@rondo/client';
import { presentedToken, type HandlerContext } from '@rondo/core';
import { ErrorCode, McpError } from '@rondo/protocol';
import { callerKey } from './isolation.js';
import type { RemoteUpstream, UpstreamSpec } from './upstreamSpec.js';

/** An upstream whose connections act for the proxy's callers (see `RemoteUpstream.callerAuthorizer`). */
export type CallerUpstream = RemoteUpstream & {
  readonly callerAuthorizer: (subjectToken: () => string) => HttpAuthorizer;
};

/** Whom a connection acts for: a caller and the access token it presented last. */
interface Subject {
  readonly key: string;
  token: string;
}

/**
 * The callers an upstream with a `callerAuthorizer` acts for, and the tokens its connections'
 * authorizers exchange: each caller's connection reads that caller's latest token (so a
 * renewed exchange uses a token still valid); the catalog connection reads the first caller's,
 * and once that caller's connection is closed, the next caller's. One token per caller connection
 * the pool keeps (`forget` drops it when the connection closes), plus the catalog's.
 */
export class ActingCallers {
  private readonly subjects = new Map<string, Subject>();
  private catalogSubject: Subject | undefined;
  /** Set when the catalog's caller has gone: the next caller seen takes its place. */
  private catalogStale = false;

  constructor(
    private readonly upstreamName: string,
    private readonly spec: CallerUpstream,
  ) {}

  /** True once a caller has been seen: the catalog connection may be opened. */
  get catalogReady(): boolean {
    return this.catalogSubject !== undefined;
  }

  /**
   * The caller key of `ctx`, its token kept for its connection (and for the catalog's, when it is
   * the first caller); throws an `McpError` (-32600) for a request without a verified token.
   */
  admit(ctx: HandlerContext, takeCatalog = false): string {
    const token = presentedToken(ctx.principal);
    if (token === undefined) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `Upstream "${this.upstreamName}" acts for each caller with a token of its own (token exchange): this request carries no verified access token`,
        { upstream: this.upstreamName },
      );
    }
    const key = callerKey(ctx);
    const subject = this.subjects.get(key) ?? { key, token };
    subject.token = token;
    this.subjects.set(key, subject);
    this.noteCatalogSubject(key, token, takeCatalog);
    return key;
  }

  /**
   * Notes the caller of `ctx` for the catalog connection, if it has a verified token: when none
   * was noted yet, or with `takeCatalog` (the catalog connection is not up: its caller's exchange
   * may have been refused), it becomes the catalog's caller.
   */
  see(ctx: Pick<HandlerContext, 'principal'>, takeCatalog = false): void {
    const token = presentedToken(ctx.principal);
    if (token !== undefined) this.noteCatalogSubject(callerKey(ctx), token, takeCatalog);
  }

  /** Drops the token of the caller `key` (its connection closed). */
  forget(key: string): void {
    this.subjects.delete(key);
    if (this.catalogSubject?.key === key) this.catalogStale = true;
  }

  /** The spec of the connection acting for the caller `key` (admitted before). */
  specFor(key: string): RemoteUpstream {
    const subject = this.subjects.get(key);
    return this.specReading(() => subject?.token ?? '');
  }

  /** The spec of the catalog connection: acting for the caller noted for it. */
  catalogSpec(): RemoteUpstream {
    return this.specReading(() => this.catalogSubject?.token ?? '');
  }

  private specReading(token: () => string): RemoteUpstream {
    const { callerAuthorizer, ...spec } = this.spec;
    return { ...spec, authorizer: callerAuthorizer(token) };
  }

  private noteCatalogSubject(key: string, token: string, take: boolean): void {
    if (this.catalogSubject === undefined || this.catalogStale || take) {
      this.catalogSubject = { key, token };
      this.catalogStale = false;
    } else if (this.catalogSubject.key === key) this.catalogSubject.token = token;
  }
}

/** The callers `spec` acts for, when it has a `callerAuthorizer` (see {@link ActingCallers}). */
export function actingCallers(name: string, spec: UpstreamSpec): ActingCallers | undefined {
  return 'url' in spec && spec.callerAuthorizer
    ? new ActingCallers(name, spec as CallerUpstream)
    : undefined;
}
