import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  checkHostAndOrigin,
  countHostLines,
  verifyBearer,
  type OAuthResourceOptions,
  type Principal,
} from '@rondo/core';
import { MCP_SUBPROTOCOL, type ResolvedOptions } from './options.js';

/** Why an upgrade was refused, as an HTTP status and a sentence for the body. */
export interface Refusal {
  status: number;
  reason: string;
  /** Headers the answer carries besides the usual ones (a `WWW-Authenticate` challenge). */
  headers?: Record<string, string>;
}

/** True when the upgrade request is for `path` (the query string is ignored). */
export function isForPath(request: IncomingMessage, path: string): boolean {
  const url = request.url ?? '/';
  const query = url.indexOf('?');
  return (query === -1 ? url : url.slice(0, query)) === path;
}

/**
 * Checks an upgrade before `ws` completes the handshake: the Host / Origin guard of
 * `@rondo/core` (400 or 403), then the `mcp` subprotocol (400). `ws` itself refuses malformed handshakes.
 */
export function refuseHandshake(
  request: IncomingMessage,
  options: ResolvedOptions,
): Refusal | undefined {
  const verdict = checkHostAndOrigin(
    {
      host: request.headers.host,
      origin: request.headers.origin,
      localAddress: request.socket.localAddress,
      hostLines: countHostLines(request.rawHeaders),
    },
    options.guard,
  );
  if (!verdict.ok) return verdict;
  const offered = offeredSubprotocols(request);
  if (offered.includes(MCP_SUBPROTOCOL)) return undefined;
  const what =
    offered.length === 0
      ? 'no subprotocol was offered'
      : `the offered subprotocols were ${offered.join(', ')}`;
  return {
    status: 400,
    reason: `This endpoint requires the WebSocket subprotocol "${MCP_SUBPROTOCOL}"; ${what}.`,
  };
}

/** The subprotocols named in `Sec-WebSocket-Protocol`, in the client's order. */
export function offeredSubprotocols(request: IncomingMessage): string[] {
  const header = request.headers['sec-websocket-protocol'];
  if (header === undefined) return [];
  return header
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
}

/** Answers an upgrade with a plain HTTP error whose body says why, then closes the socket. */
export function writeRefusal(socket: Duplex, refusal: Refusal): void {
  const body = `${refusal.reason}\n`;
  const head = [
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Error'}`,
    'Connection: close',
    'Content-Type: text/plain; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(refusal.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
  ];
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.once('finish', () => socket.destroy());
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/** Who an authenticated upgrade acts for, and until when (seconds since the epoch), if it says. */
export interface Access {
  principal: Principal;
  expiresAt: number | undefined;
}

/**
 * Checks the upgrade's access token with the HTTP transport's rules (a DPoP proof for the upgrade's
 * `GET` to its URL, where DPoP is on): the principal it acts for, or
 * the refusal (401 or 403 with its `WWW-Authenticate` challenge, 503 while the verifier cannot
 * judge tokens) to write instead of upgrading.
 */
export async function authorizeUpgrade(
  request: IncomingMessage,
  auth: OAuthResourceOptions,
): Promise<Access | Refusal> {
  const host = request.headers.host;
  const path = new URL(request.url ?? '/', 'http://upgrade').pathname;
  const urls = host ? [`http://${host}${path}`, `https://${host}${path}`] : [];
  const proof = { method: request.method ?? 'GET', urls, dpop: request.headers.dpop };
  const verdict = await verifyBearer(request.headers.authorization, auth, proof);
  if (verdict.ok) return { principal: verdict.principal, expiresAt: verdict.expiresAt };
  return { status: verdict.status, reason: verdict.reason, headers: verdict.headers };
}
