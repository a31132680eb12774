import {
  ErrorCode,
  LATEST_LEGACY_REVISION,
  LATEST_MODERN_REVISION,
  isLegacyRevision,
  isModernRevision,
  isMcpError,
  MetaKey,
  type ClientCapabilities,
  type Era,
  type Implementation,
  type ServerCapabilities,
} from '@rondo/protocol';
import { DiscoverResultSchema, InitializeResultSchema } from '@rondo/protocol/internal';
import { ProtocolViolationError, TransportError } from './errors.js';
import type { RpcSession } from './rpc.js';
import { modernMeta, type ModernIdentity } from './wire.js';

/** Which revision the client speaks: `auto` finds out, a revision pins it. */
export type EraChoice = 'auto' | '2026-07-28' | '2025-11-25' | '2025-06-18';

/** What the client learned about the server when it connected. */
export interface ServerFacts {
  readonly era: Era;
  readonly protocolVersion: string;
  readonly serverInfo: Implementation | undefined;
  readonly capabilities: ServerCapabilities;
  readonly instructions: string | undefined;
  /**
   * The revisions the server says it serves: a modern server's `server/discover` list (legacy
   * revisions included when it serves both eras), a legacy server's chosen revision alone.
   */
  readonly supportedVersions: readonly string[];
}

/** What negotiation needs to know about the client. */
export interface Negotiation {
  readonly rpc: RpcSession;
  readonly choice: EraChoice;
  readonly endpointKey: string;
  readonly capabilities: ClientCapabilities;
  readonly clientInfo: Implementation;
  readonly timeoutMs?: number | undefined;
}

/** What `auto` learned per endpoint: the era, so the next connection skips the probe. Bounded. */
const learned = new Map<string, Era>();
const MAX_LEARNED = 256;

/** Forgets what `auto` learned about every endpoint (for a server that changed era). */
export function forgetNegotiatedEras(): void {
  learned.clear();
}

/**
 * Finds the era and revision to speak. `auto` asks `server/discover` with the modern `_meta` and
 * falls back to `initialize` when the server answers as a legacy server does (an unknown method,
 * an error for a request before `initialize`, an HTTP 4xx); what it learned is kept per endpoint.
 */
export async function negotiate(n: Negotiation): Promise<ServerFacts> {
  if (n.choice === '2026-07-28') return discover(n);
  if (n.choice !== 'auto') return initialize(n, n.choice);
  const known = learned.get(n.endpointKey);
  if (known === 'legacy') return initialize(n, LATEST_LEGACY_REVISION);
  try {
    const facts = await discover(n);
    remember(n.endpointKey, 'modern');
    return facts;
  } catch (error) {
    if (known === 'modern' || !answersAsLegacy(error)) throw error;
  }
  const facts = await initialize(n, LATEST_LEGACY_REVISION);
  remember(n.endpointKey, 'legacy');
  return facts;
}

function remember(key: string, era: Era): void {
  if (learned.size >= MAX_LEARNED && !learned.has(key)) {
    const oldest = learned.keys().next().value;
    if (oldest !== undefined) learned.delete(oldest);
  }
  learned.set(key, era);
}

/** True for the ways a legacy server turns down `server/discover`. */
function answersAsLegacy(error: unknown): boolean {
  if (isMcpError(error)) {
    return (
      error.code !== ErrorCode.InternalError && error.code !== ErrorCode.UnsupportedProtocolVersion
    );
  }
  if (error instanceof LegacyOnly) return true;
  return (
    error instanceof TransportError &&
    error.status !== undefined &&
    error.status >= 400 &&
    error.status < 500
  );
}

/** `server/discover` answered, but with legacy revisions only. */
class LegacyOnly extends Error {}

/**
 * Sends `server/discover`. A server that refuses the revision (-32022) names the ones it supports:
 * the client asks once more with a modern one of those, or reports that the server is legacy only.
 */
async function discover(n: Negotiation): Promise<ServerFacts> {
  try {
    return await discoverWith(n, LATEST_MODERN_REVISION);
  } catch (error) {
    if (!isMcpError(error) || error.code !== ErrorCode.UnsupportedProtocolVersion) throw error;
    const supported = supportedOf(error.data);
    const modern = supported.find(isModernRevision);
    if (modern !== undefined) return discoverWith(n, modern);
    if (supported.some(isLegacyRevision)) throw new LegacyOnly();
    throw error;
  }
}

function supportedOf(data: unknown): string[] {
  const supported = (data as { supported?: unknown } | undefined)?.supported;
  return Array.isArray(supported)
    ? supported.filter((v): v is string => typeof v === 'string')
    : [];
}

async function discoverWith(n: Negotiation, revision: string): Promise<ServerFacts> {
  const identity: ModernIdentity = { capabilities: n.capabilities, clientInfo: n.clientInfo };
  const result = await n.rpc.request(
    'server/discover',
    { _meta: modernMeta(revision, identity) },
    { timeoutMs: n.timeoutMs },
    { headersFor: () => ({ 'MCP-Protocol-Version': revision, 'Mcp-Method': 'server/discover' }) },
  );
  const parsed = DiscoverResultSchema.safeParse(result);
  if (!parsed.success) {
    throw new ProtocolViolationError('the server/discover result does not fit the protocol');
  }
  const version = parsed.data.supportedVersions.find(isModernRevision);
  if (version === undefined) {
    if (parsed.data.supportedVersions.some(isLegacyRevision)) throw new LegacyOnly();
    throw new ProtocolViolationError(
      `the server supports none of the client's revisions (${parsed.data.supportedVersions.join(', ')})`,
    );
  }
  const meta = parsed.data._meta;
  return {
    era: 'modern',
    protocolVersion: version,
    serverInfo: meta?.[MetaKey.serverInfo],
    capabilities: parsed.data.capabilities,
    instructions: parsed.data.instructions,
    supportedVersions: parsed.data.supportedVersions,
  };
}

async function initialize(n: Negotiation, revision: string): Promise<ServerFacts> {
  const result = await n.rpc.request(
    'initialize',
    { protocolVersion: revision, capabilities: n.capabilities, clientInfo: n.clientInfo },
    { timeoutMs: n.timeoutMs },
  );
  const parsed = InitializeResultSchema.safeParse(result);
  if (!parsed.success) {
    throw new ProtocolViolationError('the initialize result does not fit the protocol');
  }
  const version = parsed.data.protocolVersion;
  if (!isLegacyRevision(version)) {
    throw new ProtocolViolationError(
      `the server chose a revision the client does not speak: ${version}`,
    );
  }
  return {
    era: 'legacy',
    protocolVersion: version,
    serverInfo: parsed.data.serverInfo,
    capabilities: parsed.data.capabilities,
    instructions: parsed.data.instructions,
    supportedVersions: [version],
  };
}
