import { clientAddress, type Principal } from '@rondo/core';
import type { HttpRequest } from './edge.js';

/**
 * Who a request comes from, for the per-client caps: its authenticated principal, or without one
 * the address it comes from (the proxy's header when one is named, the connection's peer
 * otherwise). The two kinds never collide: a principal named like an address is another client.
 */
export function clientOf(
  req: HttpRequest,
  principal: Principal | undefined,
  addressHeader: string | undefined,
): string {
  if (principal) return `principal:${principal.id}`;
  return `address:${clientAddress(req.headers, req.socket?.remoteAddress, addressHeader)}`;
}
