import { RondoError } from '@rondo/protocol';
import ipaddr from 'ipaddr.js';
import { CALLBACKS_REACHABLE, resolveAll } from '#callbackNetwork';

/** An address a callback's host resolved to, checked. */
export interface CallbackAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** A callback URL and the checked address deliveries connect to (never resolved again on the way). */
export interface CallbackTarget {
  readonly url: URL;
  readonly address: CallbackAddress;
}

/** Why a callback URL was refused. */
export type CallbackRefusal = 'not-https' | 'bad-url' | 'private-address' | 'unresolved';

/** A callback URL that is not https, does not resolve, or reaches a private address. */
export class CallbackRefusedError extends RondoError {
  override readonly code: string = 'events.callback-refused';
  override readonly name = 'CallbackRefusedError';
  constructor(
    readonly reason: CallbackRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** Resolves a host name to every address it has. */
export type HostResolver = (host: string) => Promise<readonly CallbackAddress[]>;

/**
 * Checks a webhook callback and picks the address to connect to. Only https is taken. Unless
 * `allowPrivate` (a development option), every address the host resolves to must be public
 * unicast: one loopback, private, link-local, reserved or embedding address refuses the URL, so a
 * subscriber cannot make the server call into its own network (SSRF). The caller connects to the
 * address checked here, so a DNS answer that changes after the check (rebinding) is never used.
 */
export async function resolveCallback(
  url: string,
  allowPrivate: boolean,
  resolve: HostResolver = resolveAll,
): Promise<CallbackTarget> {
  if (!CALLBACKS_REACHABLE)
    throw new CallbackRefusedError(
      'unresolved',
      'webhook callbacks are delivered on Node only: this runtime cannot pin the address it checks',
    );
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CallbackRefusedError('bad-url', 'the callback is not a URL');
  }
  if (parsed.protocol !== 'https:')
    throw new CallbackRefusedError('not-https', 'the callback must be an https URL');
  if (parsed.username !== '' || parsed.password !== '')
    throw new CallbackRefusedError('bad-url', 'the callback URL may not carry credentials');
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = ipaddr.isValid(host)
    ? [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 } as const]
    : await resolve(host).catch(() => []);
  const first = addresses[0];
  if (first === undefined)
    throw new CallbackRefusedError('unresolved', `the callback host "${host}" does not resolve`);
  if (!allowPrivate)
    for (const { address } of addresses)
      if (ipaddr.process(address).range() !== 'unicast')
        throw new CallbackRefusedError(
          'private-address',
          `the callback host "${host}" resolves to a non-public address`,
        );
  return { url: parsed, address: first };
}
