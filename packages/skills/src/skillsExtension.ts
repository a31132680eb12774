import { ErrorCode, McpError, type JsonObject } from '@rondo/protocol';
import { extensionMethod, type CachePolicy, type Extension, type ExtensionCall } from '@rondo/core';
import { paginate } from '@rondo/core/internal';
import { z } from 'zod';
import { SkillCatalog } from './skillCatalog.js';
import { parseSkillUri } from './skillPaths.js';
import { SkillsProvider } from './skillsProvider.js';
import {
  loadCodeSkill,
  type LoadedSkill,
  type SkillDocument,
  type SkillParts,
  type SkillSource,
} from './skillTypes.js';

/** The extension's identifier (SEP-2640). */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** Which skills a server serves, and how. */
export interface SkillsOptions {
  /** Skills defined in code. */
  readonly skills?: readonly (SkillParts | SkillDocument)[];
  /**
   * Other sources of skills, read when the server loads its catalog: a directory of skills
   * (`skillDirectory(path)` of `@rondo/skills/node`), a provider's declared skills.
   */
  readonly sources?: readonly SkillSource[];
  /** Serve `resources/directory/read` and announce `directoryRead: true`; default false. */
  readonly directoryRead?: boolean;
  /** The `ttlMs` / `cacheScope` of the results on the 2026-07-28 wire; default 0 and private. */
  readonly cachePolicy?: CachePolicy;
}

const ListSkillsParams = z.looseObject({ cursor: z.string().optional() });
const GetSkillParams = z.looseObject({ uri: z.string() });
const DirectoryReadParams = z.looseObject({ uri: z.string(), cursor: z.string().optional() });

/**
 * The Skills extension (`io.modelcontextprotocol/skills`, SEP-2640) for `server.use(...)`, in
 * both eras: `skills/list` (paginated, each entry with its manifest of SHA-256 digests and sizes,
 * or `"dynamic"`), `skills/get`, and with `directoryRead` `resources/directory/read`; every file
 * is a `skill://` resource. A skill defined in code is checked here (a bad name, frontmatter or a
 * file path leaving its root throws); sources are read when the server first loads its catalog,
 * and a bad skill there (frontmatter, name, a link leaving its root, the limits) fails that load
 * with a message naming the file.
 */
export function skills(options: SkillsOptions): Extension {
  // Skills defined in code are checked now, so a bad one fails where it is written.
  const codeSkills = (options.skills ?? []).map(loadCodeSkill);
  const catalog = new SkillCatalog(() => loadSkills(options.sources ?? [], codeSkills));
  const directoryRead = options.directoryRead === true;
  const policy = options.cachePolicy ?? { ttlMs: 0, cacheScope: 'private' };
  const cacheable = (result: JsonObject, call: ExtensionCall): JsonObject =>
    call.era === 'modern'
      ? { ...result, ttlMs: policy.ttlMs, cacheScope: policy.cacheScope }
      : result;
  const eras = ['legacy', 'modern'] as const;
  const methods = {
    'skills/list': extensionMethod({
      params: ListSkillsParams,
      eras,
      handle: async (params, call, runtime) => {
        await catalog.ready();
        const page = paginate(catalog.entries, params.cursor, runtime.pageSize);
        const result: JsonObject = { skills: page.items };
        if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
        return cacheable(result, call);
      },
    }),
    'skills/get': extensionMethod({
      params: GetSkillParams,
      eras,
      handle: async (params, call) => {
        await catalog.ready();
        const entry = catalog.entryFor(params.uri);
        if (entry === undefined)
          throw new McpError(ErrorCode.InvalidParams, `Unknown skill: ${params.uri}`, {
            uri: params.uri,
          });
        return cacheable({ skill: entry }, call);
      },
    }),
    ...(directoryRead
      ? {
          'resources/directory/read': extensionMethod({
            params: DirectoryReadParams,
            eras,
            handle: async (params, call, runtime) => {
              const children = await readDirectory(catalog, params.uri);
              const page = paginate(children, params.cursor, runtime.pageSize);
              const result: JsonObject = { resources: page.items };
              if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
              return cacheable(result, call);
            },
          }),
        }
      : {}),
  };
  return {
    id: SKILLS_EXTENSION,
    settings: (): JsonObject => (directoryRead ? { directoryRead: true } : {}),
    methods,
    attach: (server) => server.provider(new SkillsProvider(catalog)),
  };
}

/** The children of a skill directory; -32602 for a file, an unknown URI, or a path leaving a root. */
async function readDirectory(catalog: SkillCatalog, uri: string): Promise<JsonObject[]> {
  const location = parseSkillUri(uri);
  if (location !== undefined) {
    await catalog.ready();
    const target = await catalog.resolve(location);
    if (target.kind === 'directory') return target.children;
    if (target.kind === 'file')
      throw new McpError(ErrorCode.InvalidParams, `${uri} is a file, not a directory`, { uri });
  }
  throw new McpError(ErrorCode.InvalidParams, `Directory not found: ${uri}`, { uri });
}

async function loadSkills(
  sources: readonly SkillSource[],
  codeSkills: readonly LoadedSkill[],
): Promise<LoadedSkill[]> {
  const loaded: LoadedSkill[] = [];
  for (const source of sources) loaded.push(...(await source()));
  return [...loaded, ...codeSkills];
}
