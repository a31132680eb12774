import {
  httpTransport,
  sseTransport,
  type ClientTransport,
  type HttpAuthorizer,
} from '@rondo/client';
import { stdioTransport, webSocketTransport } from '@rondo/client/node';

/** An upstream run as a child process speaking MCP on stdio. */
export interface StdioUpstream {
  readonly command: string;
  readonly args?: readonly string[];
  /** Variables the server gets besides the allowlisted ones (HOME, PATH, USER...; see `inheritEnv`). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * False (default): the server starts with the allowlist of `defaultEnvironment()` of
   * `@rondo/client/node` plus `env`, never this process's own secrets (its state keys, another
   * upstream's credentials). True: the whole environment, for a server you trust with it.
   */
  readonly inheritEnv?: boolean;
  readonly cwd?: string;
}

/** An upstream reached by URL: `http(s)://` (Streamable HTTP) or `ws(s)://` (WebSocket). */
export interface RemoteUpstream {
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Obtains the upstream's access tokens (`http(s)://` only): `clientCredentials({...})` of
   * `@rondo/client` for a gateway acting as itself, or `oauth({...})` with a token store a person
   * filled in once. Every caller of the gateway reaches the upstream with these credentials.
   */
  readonly authorizer?: HttpAuthorizer;
  /**
   * Instead of `authorizer`, for an upstream that must see each caller (`http(s)://` only): the
   * authorizer of one caller's connections, given how to read the access token that caller
   * presented to this server (see `presentedToken` of `@rondo/core`): `tokenExchange({...,
   * subjectToken })` of `@rondo/client`, so the upstream gets a token of its own for the caller,
   * never the caller's token. Each caller then has its own connection (`isolation` is `principal`),
   * a caller without a verified token is refused, and the catalog connection is opened on the first
   * caller's request, with that caller's authorizer: no connection ever uses the proxy's own
   * credentials.
   */
  readonly callerAuthorizer?: (subjectToken: () => string) => HttpAuthorizer;
  /**
   * True for a server on the HTTP+SSE transport of 2024-11-05 (an `http(s)://` URL of its event
   * stream); default false: Streamable HTTP, or WebSocket for `ws(s)://`.
   */
  readonly sse?: boolean;
}

/** An upstream reached through a transport the caller builds (each connection gets a new one). */
export interface CustomUpstream {
  readonly transport: () => ClientTransport;
  /** A name for messages (default `custom`). */
  readonly label?: string;
  /**
   * Releases what the transports reach (an in-process server) once the proxy has closed its
   * connections.
   */
  readonly close?: () => Promise<void>;
}

/** Where an upstream server is. */
export type UpstreamSpec = StdioUpstream | RemoteUpstream | CustomUpstream;

/**
 * Throws a `TypeError` for a spec no connection could use: a URL that is not `http(s)://` or
 * `ws(s)://`, or an authorizer on a WebSocket URL (the WebSocket transport sends no tokens).
 */
export function checkUpstreamSpec(spec: UpstreamSpec): void {
  if (!('url' in spec)) return;
  const protocol = URL.canParse(spec.url) ? new URL(spec.url).protocol : '';
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(protocol)) {
    throw new TypeError(`an upstream URL must be http(s):// or ws(s)://, not ${spec.url}`);
  }
  if (spec.sse === true && protocol.startsWith('ws')) {
    throw new TypeError(`an SSE upstream needs an http(s):// URL, not ${spec.url}`);
  }
  if ((spec.authorizer || spec.callerAuthorizer) && protocol.startsWith('ws')) {
    throw new TypeError(`an authorizer needs an http(s):// upstream URL, not ${spec.url}`);
  }
  if (spec.authorizer && spec.callerAuthorizer) {
    throw new TypeError('an upstream takes an authorizer or a callerAuthorizer, not both');
  }
}

/** A new transport to the upstream, for one connection. */
export function transportFor(spec: UpstreamSpec): ClientTransport {
  if ('transport' in spec) return spec.transport();
  if ('command' in spec) {
    return stdioTransport({
      command: spec.command,
      args: spec.args ?? [],
      inheritEnv: spec.inheritEnv ?? false,
      ...(spec.env ? { env: spec.env } : {}),
      ...(spec.cwd ? { cwd: spec.cwd } : {}),
    });
  }
  const url = new URL(spec.url);
  if (url.protocol === 'ws:' || url.protocol === 'wss:') {
    return webSocketTransport({
      url: spec.url,
      ...(spec.headers ? { headers: spec.headers } : {}),
    });
  }
  const make = spec.sse === true ? sseTransport : httpTransport;
  return make({
    url: spec.url,
    ...(spec.headers ? { headers: spec.headers } : {}),
    ...(spec.authorizer ? { authorizer: spec.authorizer } : {}),
  });
}

/** How the upstream is named in messages: the command line or the URL, never its environment. */
export function describeUpstream(spec: UpstreamSpec): string {
  if ('transport' in spec) return spec.label ?? 'custom';
  if ('command' in spec) return [spec.command, ...(spec.args ?? [])].join(' ');
  return spec.url;
}
