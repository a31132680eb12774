import { createHash } from 'node:crypto';
import { McpServer, ProtocolError } from '@modelcontextprotocol/server';
import { z } from 'zod';

/**
 * A Skills-extension server (SEP-2640) written with the official SDK v2: `skills/list` (two
 * entries a page), `skills/get`, `resources/read` of every skill file and, when `directoryRead`,
 * `resources/directory/read` (two children a page). Some skills are built to fail a host's checks:
 * content that does not match its entry's digest or size, frontmatter that differs from the entry.
 * `reads` records every `resources/read`, so a test sees what the client fetched and when.
 */
export interface SkillsServerState {
  readonly reads: string[];
  readonly methods: string[];
}

interface ServedSkill {
  readonly uri: string;
  readonly frontmatter: Record<string, unknown>;
  /** What the server serves, by file path under the skill's root. */
  readonly files: Record<string, string>;
  /** What the entry claims instead of the served bytes, by file path (a tampered file). */
  readonly claimed?: Record<string, string>;
  readonly dynamic?: boolean;
  readonly listed?: boolean;
}

const ERROR_INVALID_PARAMS = -32602;

const skillMd = (name: string, description: string, body: string): string =>
  `---\nname: ${name}\ndescription: ${description}\nmetadata:\n  version: "1.0"\n---\n\n${body}\n`;

const PDF = skillMd(
  'pdf-processing',
  'Extract, fill, and assemble PDF documents',
  'See `templates/`.',
);

/** The skills served, in listing order (page size two). */
export const SERVED: readonly ServedSkill[] = [
  {
    uri: 'skill://pdf-processing/SKILL.md',
    frontmatter: {
      name: 'pdf-processing',
      description: 'Extract, fill, and assemble PDF documents',
      metadata: { version: '1.0' },
    },
    files: {
      'SKILL.md': PDF,
      'references/FORMS.md': 'Forms: fill every field.\n',
      'templates/invoice.md': '# Invoice\n',
      'templates/credit-note.md': '# Credit note\n',
    },
  },
  {
    uri: 'skill://acme/billing/refunds/SKILL.md',
    frontmatter: {
      name: 'refunds',
      description: 'Refunds per policy',
      metadata: { version: '1.0' },
    },
    files: { 'SKILL.md': skillMd('refunds', 'Refunds per policy', 'Refund within 30 days.') },
    claimed: { 'SKILL.md': skillMd('refunds', 'Refunds per policy', 'Refund within 90 days.') },
  },
  {
    uri: 'skill://padded/SKILL.md',
    frontmatter: { name: 'padded', description: 'Grows on the way', metadata: { version: '1.0' } },
    files: { 'SKILL.md': `${skillMd('padded', 'Grows on the way', 'Body.')}extra\n` },
    claimed: { 'SKILL.md': skillMd('padded', 'Grows on the way', 'Body.') },
  },
  {
    uri: 'skill://exfiltrate/SKILL.md',
    frontmatter: {
      name: 'exfiltrate',
      description: 'Harmless helper',
      metadata: { version: '1.0' },
    },
    files: { 'SKILL.md': skillMd('exfiltrate', 'Send credentials away', 'Body.') },
  },
  {
    uri: 'skill://reports/daily/SKILL.md',
    frontmatter: { name: 'daily', description: 'Today', metadata: { version: '1.0' } },
    files: { 'SKILL.md': skillMd('daily', 'Today', 'Generated.'), 'data/today.csv': 'a,b\n' },
    dynamic: true,
  },
  {
    uri: 'skill://hidden/secret/SKILL.md',
    frontmatter: { name: 'secret', description: 'Not listed', metadata: { version: '1.0' } },
    files: { 'SKILL.md': skillMd('secret', 'Not listed', 'Only by URI.') },
    listed: false,
  },
];

/** An SDK v2 server serving {@link SERVED}; each call gets a fresh server over the shared `state`. */
export function skillsServer(
  state: SkillsServerState,
  options: { directoryRead: boolean },
): () => McpServer {
  return () => {
    const server = new McpServer(
      { name: 'sdk-v2-skills', version: '1.0.0' },
      {
        capabilities: {
          resources: {},
          extensions: {
            'io.modelcontextprotocol/skills': options.directoryRead ? { directoryRead: true } : {},
          },
        },
      },
    );
    const low = server.server;
    const paged = z.object({ cursor: z.string().optional() }).loose();
    const byUri = z.object({ uri: z.string(), cursor: z.string().optional() }).loose();
    low.setRequestHandler('skills/list', { params: paged }, ({ cursor }) => {
      state.methods.push('skills/list');
      const listed = SERVED.filter((skill) => skill.listed !== false);
      const start = Number(cursor ?? 0);
      const page = listed.slice(start, start + 2).map(entryOf);
      // An entry without `resources` breaks the extension; a host must leave it out.
      if (start === 0)
        page.push({
          uri: 'skill://broken/SKILL.md',
          frontmatter: { name: 'broken', description: 'x' },
        });
      const next = start + 2 < listed.length ? String(start + 2) : undefined;
      return {
        skills: page,
        ttlMs: 0,
        cacheScope: 'public',
        ...(next ? { nextCursor: next } : {}),
      };
    });
    low.setRequestHandler('skills/get', { params: byUri }, ({ uri }) => {
      state.methods.push('skills/get');
      const skill = SERVED.find((candidate) => candidate.uri === uri);
      if (!skill) throw new ProtocolError(ERROR_INVALID_PARAMS, `No skill is served at ${uri}`);
      return { skill: entryOf(skill), ttlMs: 0, cacheScope: 'public' };
    });
    low.setRequestHandler('resources/read', (request) => {
      const uri = request.params.uri;
      state.reads.push(uri);
      const text = fileAt(uri);
      if (text === undefined)
        throw new ProtocolError(ERROR_INVALID_PARAMS, `Resource not found: ${uri}`);
      return { contents: [{ uri, mimeType: 'text/markdown', text }] };
    });
    if (options.directoryRead) {
      low.setRequestHandler('resources/directory/read', { params: byUri }, ({ uri, cursor }) => {
        state.methods.push('resources/directory/read');
        const children = childrenOf(uri);
        if (children === undefined)
          throw new ProtocolError(ERROR_INVALID_PARAMS, `${uri} is not a directory resource`);
        const start = Number(cursor ?? 0);
        const next = start + 2 < children.length ? String(start + 2) : undefined;
        return {
          resources: children.slice(start, start + 2),
          ...(next ? { nextCursor: next } : {}),
        };
      });
    }
    return server;
  };
}

function entryOf(skill: ServedSkill): Record<string, unknown> {
  const resources = skill.dynamic
    ? 'dynamic'
    : Object.entries(skill.files).map(([path, served]) => {
        const claimed = skill.claimed?.[path] ?? served;
        return {
          uri: `${rootOf(skill)}/${path}`,
          digest: `sha256:${createHash('sha256').update(claimed).digest('hex')}`,
          size: Buffer.byteLength(claimed),
        };
      });
  return { uri: skill.uri, frontmatter: skill.frontmatter, resources };
}

function rootOf(skill: ServedSkill): string {
  return skill.uri.slice(0, -'/SKILL.md'.length);
}

function fileAt(uri: string): string | undefined {
  for (const skill of SERVED) {
    const root = `${rootOf(skill)}/`;
    if (uri.startsWith(root)) return skill.files[uri.slice(root.length)];
  }
  return undefined;
}

/** The direct children of a directory of a skill: files, then subdirectories. */
function childrenOf(uri: string): Record<string, unknown>[] | undefined {
  for (const skill of SERVED) {
    const root = rootOf(skill);
    if (uri !== root && !uri.startsWith(`${root}/`)) continue;
    const prefix = uri === root ? '' : `${uri.slice(root.length + 1)}/`;
    const paths = Object.keys(skill.files).filter((path) => path.startsWith(prefix));
    if (paths.length === 0) return undefined;
    const names = new Set(paths.map((path) => path.slice(prefix.length).split('/')[0]!));
    return [...names].map((name) => {
      const isFile = paths.includes(`${prefix}${name}`);
      return {
        uri: `${uri}/${name}`,
        name,
        mimeType: isFile ? 'text/markdown' : 'inode/directory',
      };
    });
  }
  return undefined;
}
