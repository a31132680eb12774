import type { JsonObject } from '@rondo/protocol';
import { ConfigurationError } from '@rondo/core';
import { skillUri, type SkillLocation } from './skillPaths.js';
import { bytesOf, mimeTypeOf, type LoadedSkill, type SkillFile } from './skillTypes.js';

/** A child of a skill directory as `resources/directory/read` lists it. */
export interface DirectoryChild extends JsonObject {
  uri: string;
  name: string;
  mimeType: string;
}

/** What a skill resource URI names. */
export type SkillTarget =
  | { kind: 'file'; file: SkillFile }
  | { kind: 'directory'; children: DirectoryChild[] }
  | { kind: 'none' };

/** The MIME type of a directory in a listing (SEP-2640). */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

/**
 * The skills a server serves, loaded once (the first request waits), with each skill's entry as
 * `skills/list` and `skills/get` carry it: the frontmatter verbatim and either every file's
 * `{uri, digest, size}` (SKILL.md first) or `"dynamic"`.
 */
export class SkillCatalog {
  private loading: Promise<void> | undefined;
  private byName = new Map<string, LoadedSkill>();
  private entryList: JsonObject[] = [];

  constructor(private readonly load: () => Promise<LoadedSkill[]>) {}

  /** Loads the skills (once); a failure is thrown to every caller. */
  ready(): Promise<void> {
    this.loading ??= this.loadAll();
    return this.loading;
  }

  /** Every skill, in the order of their sources. */
  get skills(): readonly LoadedSkill[] {
    return [...this.byName.values()];
  }

  /** The entries of every skill, in order. */
  get entries(): readonly JsonObject[] {
    return this.entryList;
  }

  /** The entry of the skill whose SKILL.md is `uri`, if served. */
  entryFor(uri: string): JsonObject | undefined {
    return this.entryList.find((entry) => entry.uri === uri);
  }

  /** What a location inside a skill names: a file, a directory (with its children) or nothing. */
  async resolve(location: SkillLocation): Promise<SkillTarget> {
    const skill = this.byName.get(location.skill);
    if (skill === undefined) return { kind: 'none' };
    const file = skill.files.get(location.path);
    if (file !== undefined) return { kind: 'file', file };
    const children = childrenOf(skill, location.path);
    if (children !== undefined) return { kind: 'directory', children };
    const content = location.path === '' ? undefined : await skill.readFile?.(location.path);
    if (content === undefined) return { kind: 'none' };
    const path = location.path;
    return { kind: 'file', file: { path, bytes: bytesOf(content), mimeType: mimeTypeOf(path) } };
  }

  private async loadAll(): Promise<void> {
    const skills = await this.load();
    const byName = new Map<string, LoadedSkill>();
    for (const skill of skills) {
      const other = byName.get(skill.name);
      if (other !== undefined)
        throw new ConfigurationError(
          `two skills are named "${skill.name}" (from ${other.origin} and ${skill.origin})`,
        );
      byName.set(skill.name, skill);
    }
    this.entryList = await Promise.all(skills.map(entryOf));
    this.byName = byName;
  }
}

/** A skill's entry: its SKILL.md URI, its frontmatter, and its manifest (or `"dynamic"`). */
async function entryOf(skill: LoadedSkill): Promise<JsonObject> {
  const uri = skillUri(skill.name, 'SKILL.md');
  if (skill.readFile !== undefined)
    return { uri, frontmatter: skill.frontmatter, resources: 'dynamic' };
  const ordered = [...skill.files.values()].sort((a, b) =>
    a.path === 'SKILL.md' ? -1 : b.path === 'SKILL.md' ? 1 : a.path < b.path ? -1 : 1,
  );
  const resources = await Promise.all(
    ordered.map(async (file) => ({
      uri: skillUri(skill.name, file.path),
      digest: await sha256(file.bytes),
      size: file.bytes.byteLength,
    })),
  );
  return { uri, frontmatter: skill.frontmatter, resources };
}

/** The direct children of a directory inside a skill, or `undefined` when it is no directory. */
function childrenOf(skill: LoadedSkill, directory: string): DirectoryChild[] | undefined {
  const prefix = directory === '' ? '' : `${directory}/`;
  const files: DirectoryChild[] = [];
  const folders = new Set<string>();
  for (const file of skill.files.values()) {
    if (!file.path.startsWith(prefix)) continue;
    const rest = file.path.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash >= 0) folders.add(rest.slice(0, slash));
    else
      files.push({
        uri: skillUri(skill.name, file.path),
        name: rest,
        mimeType: file.mimeType,
        size: file.bytes.byteLength,
      });
  }
  if (files.length === 0 && folders.size === 0) return undefined;
  const subdirectories = [...folders].sort().map((name) => ({
    uri: skillUri(skill.name, `${prefix}${name}`),
    name,
    mimeType: DIRECTORY_MIME_TYPE,
  }));
  return [...subdirectories, ...files];
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return `sha256:${hex}`;
}
