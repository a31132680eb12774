import ipaddr from 'ipaddr.js';
import { ConfigurationError } from './errors.js';

/** How many leading bits of an IPv6 address name one client by default: its /64 network. */
export const DEFAULT_IPV6_CLIENT_PREFIX = 64;

/**
 * The key an anonymous client's shares are counted under, from its address: an IPv4 address (an
 * IPv4-mapped IPv6 one included) as it is, an IPv6 address as its network of `ipv6Prefix` bits
 * (`2001:db8:1:2::/64`), since one subscriber is given a whole /64 and may speak from any of its
 * addresses. Anything that does not parse as an address (a Unix socket, an empty string) is kept
 * as it is.
 */
export function clientKeyOfAddress(
  address: string,
  ipv6Prefix: number = DEFAULT_IPV6_CLIENT_PREFIX,
): string {
  // A zone index (`fe80::1%eth0`) names the host's interface, not the client.
  const bare = address.replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return address;
  const parsed = ipaddr.process(bare);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const bytes = parsed.toByteArray();
  for (let bit = ipv6Prefix; bit < 128; bit += 1) {
    const index = bit >> 3;
    bytes[index] = bytes[index]! & ~(0x80 >> (bit & 7));
  }
  return `${ipaddr.fromByteArray(bytes).toString()}/${ipv6Prefix}`;
}

/** Checks an `ipv6ClientPrefix` option: a whole number of bits from 1 to 128. */
export function checkIpv6Prefix(value: number | undefined, option: string): number {
  const prefix = value ?? DEFAULT_IPV6_CLIENT_PREFIX;
  if (!Number.isInteger(prefix) || prefix < 1 || prefix > 128)
    throw new ConfigurationError(
      `${option} must be a whole number of bits from 1 to 128, got ${prefix}`,
    );
  return prefix;
}
