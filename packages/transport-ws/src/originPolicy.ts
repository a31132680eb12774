/**
 * The Origin and Host guard for requests that reach a server from a browser. It only needs the
 * request's headers and the local address it arrived on, so any HTTP-based transport can share it.
 */

import { normaliseOrigin } from '@rondo/core/internal';

/** Which browser origins and Host names a server accepts. */
export interface OriginPolicy {
  /** Exact origins (`scheme://host[:port]`), or `'*'` for any. */
  allowedOrigins: readonly string[];
  /** Accepted Host values (hostname or hostname:port); undefined = the loopback rule only. */
  allowedHosts: readonly string[] | undefined;
}

/** The facts about a request the guard looks at. */
export interface RequestFacts {
  origin: string | undefined;
  host: string | undefined;
  /** The local address the connection arrived on (`socket.localAddress`). */
  localAddress: string | undefined;
}

/** Why a request was refused, as an HTTP status and a sentence for the body. */
export interface Refusal {
  status: number;
  reason: string;
}

const LOOPBACK_NAMES = new Set(['localhost', '[::1]', '::1']);

/**
 * Checks a request's Host and Origin. A connection that arrived on a loopback address must name a
 * loopback host (or an allowed one), which defeats DNS rebinding. An Origin header, sent by browsers
 * only, must be allowed explicitly or name the same host as the Host header.
 */
export function checkOrigin(request: RequestFacts, policy: OriginPolicy): Refusal | undefined {
  const host = request.host?.toLowerCase();
  if (!isHostAllowed(host, request.localAddress, policy.allowedHosts)) {
    return { status: 403, reason: `Host ${JSON.stringify(request.host ?? '')} is not allowed` };
  }
  if (request.origin === undefined) return undefined;
  if (policy.allowedOrigins.includes('*')) return undefined;
  const origin = normaliseOrigin(request.origin);
  const allowed = policy.allowedOrigins.some((entry) => normaliseOrigin(entry) === origin);
  if (allowed || (origin !== undefined && host !== undefined && isSameHost(origin, host)))
    return undefined;
  return { status: 403, reason: `Origin ${JSON.stringify(request.origin)} is not allowed` };
}

function isHostAllowed(
  host: string | undefined,
  localAddress: string | undefined,
  allowed?: readonly string[],
): boolean {
  if (
    host !== undefined &&
    allowed?.some((entry) => [host, hostnameOf(host)].includes(entry.toLowerCase()))
  ) {
    return true;
  }
  if (allowed !== undefined) return false;
  if (!isLoopbackAddress(localAddress)) return true;
  return host !== undefined && isLoopbackName(hostnameOf(host));
}

/** The hostname of a Host header value (`[::1]:80` → `[::1]`, `a.b:80` → `a.b`). */
function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.indexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

function isLoopbackName(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  return isLoopbackName(address.replace(/^::ffff:/, ''));
}

/** True when an origin names the Host header's host (default ports compared as URLs do). */
function isSameHost(origin: string, host: string): boolean {
  const url = new URL(origin);
  try {
    return new URL(`${url.protocol}//${host}`).host === url.host;
  } catch {
    return false;
  }
}
