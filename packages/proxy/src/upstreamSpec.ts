import { httpTransport, type ClientTransport } from '@rondo/client';
import { stdioTransport, webSocketTransport } from '@rondo/client/node';

/** An upstream run as a child process speaking MCP on stdio. */
export interface StdioUpstream {
  readonly command: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** An upstream reached by URL: `http(s)://` (Streamable HTTP) or `ws(s)://` (WebSocket). */
export interface RemoteUpstream {
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** An upstream reached through a transport the caller builds (each connection gets a new one). */
export interface CustomUpstream {
  readonly transport: () => ClientTransport;
  /** A name for messages (default `custom`). */
  readonly label?: string;
}

/** Where an upstream server is. */
export type UpstreamSpec = StdioUpstream | RemoteUpstream | CustomUpstream;

/** A new transport to the upstream, for one connection. */
export function transportFor(spec: UpstreamSpec): ClientTransport {
  if ('transport' in spec) return spec.transport();
  if ('command' in spec) {
    return stdioTransport({
      command: spec.command,
      args: spec.args ?? [],
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
  return httpTransport({ url: spec.url, ...(spec.headers ? { headers: spec.headers } : {}) });
}

/** How the upstream is named in messages: the command line or the URL, never its environment. */
export function describeUpstream(spec: UpstreamSpec): string {
  if ('transport' in spec) return spec.label ?? 'custom';
  if ('command' in spec) return [spec.command, ...(spec.args ?? [])].join(' ');
  return spec.url;
}
