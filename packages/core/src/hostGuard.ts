/**
 * The Host / Origin guard against DNS rebinding and cross-site requests, shared by every transport
 * that speaks HTTP (plain requests and WebSocket upgrades alike). It reads three facts about a
 * request and answers with a verdict; it never touches a socket, so it runs on any runtime.
 */
import { ConfigurationError } from './errors.js';

/** The one spelling that turns either check off. */
const ALLOW_ANY = 'any';

/** Which Host names and browser Origins a server accepts; every HTTP-based transport takes these. */
export interface HostGuardOptions {
  /**
   * Host header values accepted: `name` (any port) or `name:port`, IPv6 in brackets. The list
   * replaces the default rule, which accepts only hosts that name an address (`localhost` or an IP
   * literal, and only loopback ones on a loopback connection). `'any'` turns the Host check off:
   * only behind a proxy that checks Host itself.
   */
  allowedHosts?: readonly string[] | 'any';
  /**
   * Browser origins accepted besides the server's own (an Origin naming the request's Host), as
   * `scheme://host[:port]`. A request without Origin (a non-browser client) always passes. `'any'`
   * accepts every origin.
   */
  allowedOrigins?: readonly string[] | 'any';
}

/** {@link HostGuardOptions} checked and normalised once, for {@link checkHostAndOrigin}. */
export interface HostGuardPolicy {
  /** Allowed hosts, `'any'`, or undefined for the default rule. */
  readonly hosts: readonly HostRule[] | 'any' | undefined;
  /** Allowed origins, normalised (`scheme://host[:port]`, lower case, default port dropped). */
  readonly origins: ReadonlySet<string> | 'any';
}

/** One entry of `allowedHosts`: a hostname, and a port unless any port is accepted. */
export interface HostRule {
  readonly hostname: string;
  readonly port: string | undefined;
}

/** What the guard needs to know about a request. */
export interface HostGuardFacts {
  /** The Host header, undefined when absent. */
  host: string | undefined;
  /** The Origin header, undefined when absent (browsers send one; other clients rarely do). */
  origin: string | undefined;
  /** The local address the connection arrived on (node's `socket.localAddress`), if known. */
  localAddress: string | undefined;
  /**
   * How many Host field lines the request carried, when the runtime tells (node's `rawHeaders`;
   * node itself keeps the first and drops the rest). More than one is refused with 400 whatever the
   * policy, as RFC 9112 requires: a proxy and the server could each read a different one.
   */
  hostLines?: number | undefined;
}

/**
 * How many Host field lines node's `rawHeaders` (names and values alternating) hold; undefined
 * without them (a runtime that joins repeated fields, as `fetch`'s `Headers` does).
 */
export function countHostLines(rawHeaders: readonly string[] | undefined): number | undefined {
  if (rawHeaders === undefined) return undefined;
  let count = 0;
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index] as string;
    if (name.length === 4 && name.toLowerCase() === 'host') count += 1;
  }
  return count;
}

/** The guard's answer: pass, or refuse with an HTTP status and a sentence for the body. */
export type HostGuardVerdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly status: 400 | 403; readonly reason: string };

const ALLOWED: HostGuardVerdict = Object.freeze({ ok: true });

/**
 * Checks options once, at start-up: a malformed host or origin, or `'*'` where `'any'` is meant,
 * is a {@link ConfigurationError} rather than an entry that silently never matches. Without
 * options, hosts follow the default rule and only the server's own origin is accepted.
 */
export function resolveHostGuard(options: HostGuardOptions = {}): HostGuardPolicy {
  const { allowedHosts, allowedOrigins } = options;
  return {
    hosts:
      allowedHosts === undefined || allowedHosts === ALLOW_ANY
        ? allowedHosts
        : allowedHosts.map((entry) => hostRule(entry)),
    origins:
      allowedOrigins === undefined
        ? new Set()
        : allowedOrigins === ALLOW_ANY
          ? ALLOW_ANY
          : new Set(allowedOrigins.map((entry) => originRule(entry))),
  };
}

/**
 * The Host / Origin verdict for one request. The Host must be present and well formed (else 400)
 * and allowed (else 403): listed in `allowedHosts`, or by default a name that cannot be rebound,
 * `localhost` or an IP literal, loopback on a loopback connection. An Origin, when sent, must be
 * the server's own (naming the same host and port as the Host header) or listed (else 403).
 */
export function checkHostAndOrigin(
  facts: HostGuardFacts,
  policy: HostGuardPolicy,
): HostGuardVerdict {
  if (facts.hostLines !== undefined && facts.hostLines > 1)
    return refuse(400, 'The request carries more than one Host header');
  if (policy.hosts !== ALLOW_ANY) {
    if (!facts.host) return refuse(400, 'The Host header is missing');
    const host = parseHost(facts.host);
    if (!host) return refuse(400, `The Host header ${JSON.stringify(facts.host)} is malformed`);
    const allowed =
      policy.hosts === undefined
        ? isAddressHost(host.hostname, facts.localAddress)
        : policy.hosts.some((rule) => matches(rule, host));
    if (!allowed) return refuse(403, `Host ${JSON.stringify(facts.host)} is not allowed`);
  }
  const { origin } = facts;
  if (origin === undefined || policy.origins === ALLOW_ANY) return ALLOWED;
  const normalised = normaliseOrigin(origin);
  if (
    normalised !== undefined &&
    (policy.origins.has(normalised) ||
      (facts.host !== undefined && isSameHost(normalised, facts.host)))
  ) {
    return ALLOWED;
  }
  return refuse(403, `Origin ${JSON.stringify(origin)} is not allowed`);
}

/**
 * Reads an `allowedHosts` list written as text, the form of a command-line flag or an environment
 * variable (`RONDO_ALLOWED_HOSTS`): entries separated by commas, space around them dropped, each
 * `name` or `name:port`; the single word `any` is {@link HostGuardOptions.allowedHosts}' `'any'`.
 * An entry {@link resolveHostGuard} would refuse is a {@link ConfigurationError} here, naming
 * `source`; so is a list with no entry.
 */
export function parseAllowedHosts(
  text: string,
  source = 'allowedHosts',
): readonly string[] | 'any' {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 1 && entries[0] === ALLOW_ANY) return ALLOW_ANY;
  if (entries.length === 0)
    throw new ConfigurationError(`${source}: no host given (list names, or write ${ALLOW_ANY})`);
  for (const entry of entries) {
    if (entry === ALLOW_ANY)
      throw new ConfigurationError(`${source}: ${ALLOW_ANY} stands alone, not in a list of hosts`);
    hostRule(entry, source);
  }
  return entries;
}

function refuse(status: 400 | 403, reason: string): HostGuardVerdict {
  return { ok: false, status, reason };
}

function hostRule(entry: string, source = 'allowedHosts'): HostRule {
  if (entry === '*') {
    throw new ConfigurationError(
      source === 'allowedHosts'
        ? `Write allowedHosts: '${ALLOW_ANY}' to allow any host`
        : `${source}: write ${ALLOW_ANY} to allow any host`,
    );
  }
  if (entry.includes('*'))
    throw new ConfigurationError(`${source}: "${entry}" has a wildcard; list each host instead`);
  const parsed = parseHost(entry);
  if (!parsed) throw new ConfigurationError(`${source}: "${entry}" is not a host or host:port`);
  return parsed;
}

function originRule(entry: string): string {
  if (entry === '*') {
    throw new ConfigurationError(`Write allowedOrigins: '${ALLOW_ANY}' to allow any origin`);
  }
  const normalised = normaliseOrigin(entry);
  if (normalised === undefined) {
    throw new ConfigurationError(
      `allowedOrigins: "${entry}" is not an origin (scheme://host[:port])`,
    );
  }
  return normalised;
}

function matches(rule: HostRule, host: HostRule): boolean {
  return rule.hostname === host.hostname && (rule.port === undefined || rule.port === host.port);
}

/**
 * True for a Host that names an address rather than a DNS name, which is what DNS rebinding
 * needs: `localhost` or an IP literal, and on a loopback connection only a loopback one.
 */
function isAddressHost(hostname: string, localAddress: string | undefined): boolean {
  if (isLoopbackHostname(hostname)) return true;
  return !isLoopbackAddress(localAddress) && isIpLiteral(hostname);
}

const IPV4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const LOOPBACK_IPV4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
/** `::ffff:127.x.y.z` as the URL parser writes it (`[::ffff:7f00:1]`). */
const MAPPED_LOOPBACK_IPV6 = /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/;

function isLoopbackHostname(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    LOOPBACK_IPV4.test(hostname) ||
    MAPPED_LOOPBACK_IPV6.test(hostname)
  );
}

function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith('[') || IPV4.test(hostname);
}

/** An unknown local address counts as loopback: the stricter rule. */
function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return true;
  return address === '::1' || LOOPBACK_IPV4.test(address.replace(/^::ffff:/i, ''));
}

/** `name[:port]` or `[v6][:port]`; anything a URL would read as userinfo, path or query is not. */
const HOST_SYNTAX = /^(\[[0-9a-fA-F:.]+\]|[^\s:/?#@[\]\\]+)(?::(\d{1,5}))?$/;

/** Hosts already parsed: clients repeat the same few Host values, and a URL parse is not cheap. */
const parsedHosts = new Map<string, HostRule | undefined>();
const PARSED_HOSTS_KEPT = 256;

function parseHost(value: string): HostRule | undefined {
  if (parsedHosts.has(value)) return parsedHosts.get(value);
  const parsed = parseHostOnce(value);
  if (parsedHosts.size >= PARSED_HOSTS_KEPT) parsedHosts.clear();
  parsedHosts.set(value, parsed);
  return parsed;
}

/** The hostname as the URL parser normalises it (lower case, IPv4 and IPv6 in canonical form). */
function parseHostOnce(value: string): HostRule | undefined {
  const match = HOST_SYNTAX.exec(value);
  if (!match?.[1]) return undefined;
  const port = match[2] === undefined ? undefined : String(Number(match[2]));
  if (port !== undefined && Number(port) > 65535) return undefined;
  try {
    return { hostname: new URL(`http://${match[1]}`).hostname, port };
  } catch {
    return undefined;
  }
}

/** `scheme://host[:port]` in lower case with the default port dropped; undefined for `null`. */
function normaliseOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    if (url.origin !== 'null') return url.origin;
    // Schemes without a web origin (browser extensions) still have a host to compare.
    return url.host === '' ? undefined : `${url.protocol}//${url.host}`;
  } catch {
    return undefined;
  }
}

/** True when a normalised origin names the Host header's host (default ports compared as URLs do). */
function isSameHost(origin: string, host: string): boolean {
  try {
    const scheme = origin.slice(0, origin.indexOf('//'));
    return new URL(`${scheme}//${host}`).host === new URL(origin).host;
  } catch {
    return false;
  }
}
