import type { Principal } from '@rondo/core';
import type { HttpRequest } from './edge.js';
import { headerValue } from './reply.js';

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
  const forwarded = addressHeader ? headerValue(req.headers, addressHeader) : undefined;
  // A proxy appends the address it saw: the last entry is the one it vouches for.
  const address = forwarded?.split(',').at(-1)?.trim() ?? req.socket?.remoteAddress ?? '';
  return `address:${address}`;
}
