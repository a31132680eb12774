import { clientAddress, clientKeyOfAddress, type Principal } from '@rondo/core';
import type { HttpRequest } from './edge.js';

/**
 * Who a request comes from, for the per-client caps: its authenticated principal, or without one
 * the address it comes from (the proxy's header when one is named, the connection's peer
 * otherwise; an IPv6 one by its network of `ipv6Prefix` bits). The two kinds never collide: a
 * principal named like an address is another client.
 */
export function clientOf(
  req: HttpRequest,
  principal: Principal | undefined,
  addressHeader: string | undefined,
  ipv6Prefix: number,
): string {
  if (principal) return `principal:${principal.id}`;
  const address = clientAddress(req.headers, req.socket?.remoteAddress, addressHeader);
  return `address:${clientKeyOfAddress(address, ipv6Prefix)}`;
}
