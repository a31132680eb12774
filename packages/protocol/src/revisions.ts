/** Protocol revisions of the handshake (legacy) era, newest first. */
export const LEGACY_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
/** Protocol revisions of the per-request (modern) era, newest first. */
export const MODERN_REVISIONS = ['2026-07-28'] as const;

export type LegacyRevision = (typeof LEGACY_REVISIONS)[number];
export type ModernRevision = (typeof MODERN_REVISIONS)[number];
export type Revision = LegacyRevision | ModernRevision;
export type Era = 'legacy' | 'modern';

/** The newest revision of each era. */
export const LATEST_LEGACY_REVISION: LegacyRevision = '2025-11-25';
export const LATEST_MODERN_REVISION: ModernRevision = '2026-07-28';

/** Reserved `_meta` keys of the modern era. */
export const MetaKey = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
  relatedTask: 'io.modelcontextprotocol/related-task',
} as const;

/** True when `version` is a legacy revision Rondo serves. */
export function isLegacyRevision(version: unknown): version is LegacyRevision {
  return (LEGACY_REVISIONS as readonly unknown[]).includes(version);
}

/** True when `version` is a modern revision Rondo serves. */
export function isModernRevision(version: unknown): version is ModernRevision {
  return (MODERN_REVISIONS as readonly unknown[]).includes(version);
}
