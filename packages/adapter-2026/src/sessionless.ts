import { MetaKey } from '@rondo/protocol';
import type { HeaderMap } from './headerRules.js';

/**
 * The words of the -32602 a request without `params._meta` gets. Such a request is either a
 * modern one that forgot its `_meta`, or a legacy one sent without a session (no `initialize`
 * first): the message names both ways in, leading with the one the `MCP-Protocol-Version` header
 * points at, so a 2025 client is not told only about a 2026 rule.
 */
export function missingMetaMessage(
  headers: HeaderMap | undefined,
  modern: ReadonlySet<string>,
  advertised: readonly string[],
): string {
  const legacy = advertised.filter((revision) => !modern.has(revision));
  const modernWay = `a ${[...modern].join(' or ')} request carries params._meta with "${MetaKey.protocolVersion}" and "${MetaKey.clientCapabilities}"`;
  if (legacy.length === 0) return `Invalid params: params._meta is required: ${modernWay}`;
  const claimed = headerVersion(headers);
  if (claimed !== undefined && legacy.includes(claimed)) {
    return `Invalid params: this ${claimed} request has no session: send initialize first (then notifications/initialized) and the session's id with every request, or make it a modern request: ${modernWay}`;
  }
  return `Invalid params: params._meta is required: ${modernWay}; a ${legacy.join(' or ')} client sends initialize first and then requests in its session`;
}

/** The `MCP-Protocol-Version` header when it is one plain value; anything else names no version. */
function headerVersion(headers: HeaderMap | undefined): string | undefined {
  const raw = headers?.['mcp-protocol-version'];
  const value = Array.isArray(raw) ? (raw.length === 1 ? raw[0] : undefined) : raw;
  return value?.trim();
}
