/**
 * The address a request comes from, for per-client shares: behind a reverse proxy that names the
 * client in `addressHeader` (`x-forwarded-for`, ...), that header's last entry, the one the proxy
 * itself appended (earlier entries are whatever the client claimed); otherwise the connection's
 * peer. Several header lines count as one list, as HTTP joins them. Empty when neither is known.
 */
export function clientAddress(
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
  peerAddress: string | undefined,
  addressHeader: string | undefined,
): string {
  const raw = addressHeader ? headers[addressHeader.toLowerCase()] : undefined;
  const joined = typeof raw === 'string' ? raw : raw?.join(',');
  const forwarded = joined?.split(',').at(-1)?.trim();
  return forwarded || peerAddress || '';
}
