import type { ServerInfo } from '@rondo/core';
import type { ServedLegacyRevision } from './options.js';

/**
 * What each legacy revision's schema allows on the descriptors and identities the server sends.
 * Definitions are era-neutral and may carry members of newer revisions (icons, say); the adapter
 * keeps only the members the negotiated revision knows, so a 2025-06-18 client never receives one
 * its schema lacks.
 */
type Kind = 'implementation' | 'tool' | 'prompt' | 'resource' | 'resourceTemplate';

const BASE: Record<Kind, readonly string[]> = {
  implementation: ['name', 'version', 'title'],
  tool: ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', '_meta'],
  prompt: ['name', 'title', 'description', 'arguments', '_meta'],
  resource: ['uri', 'name', 'title', 'description', 'mimeType', 'size', 'annotations', '_meta'],
  resourceTemplate: [
    'uriTemplate',
    'name',
    'title',
    'description',
    'mimeType',
    'annotations',
    '_meta',
  ],
};

/** Members 2025-11-25 added to each kind (SEP-973 icons, richer implementation info). */
const ADDED_IN_2025_11_25: Record<Kind, readonly string[]> = {
  implementation: ['description', 'icons', 'websiteUrl'],
  tool: ['icons'],
  prompt: ['icons'],
  resource: ['icons'],
  resourceTemplate: ['icons'],
};

const MEMBERS: Record<ServedLegacyRevision, Record<Kind, ReadonlySet<string>>> = {
  '2025-06-18': membersOf(() => []),
  '2025-11-25': membersOf((kind) => ADDED_IN_2025_11_25[kind]),
};

function membersOf(added: (kind: Kind) => readonly string[]): Record<Kind, ReadonlySet<string>> {
  const kinds = Object.keys(BASE) as Kind[];
  const members = {} as Record<Kind, ReadonlySet<string>>;
  for (const kind of kinds) members[kind] = new Set([...BASE[kind], ...added(kind)]);
  return members;
}

/** Keeps the members of `value` the revision's schema defines for `kind`, dropping absent ones. */
export function shapeFor(
  kind: Kind,
  revision: ServedLegacyRevision,
  value: object,
): Record<string, unknown> {
  const allowed = MEMBERS[revision][kind];
  const shaped: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (allowed.has(key) && member !== undefined) shaped[key] = member;
  }
  return shaped;
}

/** The `serverInfo` of an initialize result (the instructions travel in their own member). */
export function serverInfoFor(
  info: ServerInfo,
  revision: ServedLegacyRevision,
): Record<string, unknown> {
  const { instructions: _instructions, ...identity } = info;
  return shapeFor('implementation', revision, identity);
}
