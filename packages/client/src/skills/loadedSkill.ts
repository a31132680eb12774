import type { ClientCore } from '../client.js';
import { SkillVerificationError } from '../errors.js';
import type { CallOptions } from '../rpc.js';
import type { ReadResourceResult } from '../types.js';
import {
  MAX_SKILL_BYTES,
  MAX_SKILL_FILES,
  resolveSkillFile,
  skillRoot,
  type Skill,
  type SkillResource,
} from './entries.js';
import { fileOf, verifyFile, verifyFrontmatter, type SkillFile } from './verify.js';

/**
 * A skill the client has loaded: its `SKILL.md` read and verified against the entry it holds, and
 * that entry, which from now on decides which files of the skill may be read. Files are read only
 * when asked for (never ahead of need), verified, and kept.
 */
export class LoadedSkill {
  private readonly cache = new Map<string, SkillFile>();
  private retrievedBytes = 0;

  private constructor(
    private readonly core: ClientCore,
    /** The entry the skill was loaded from: its manifest binds every later read. */
    readonly entry: Skill,
    /** The verified `SKILL.md`. */
    readonly skillFile: SkillFile,
    /** `SKILL.md` after its frontmatter: the instructions. */
    readonly body: string,
  ) {
    this.cache.set(skillFile.uri, skillFile);
    this.retrievedBytes = skillFile.bytes.byteLength;
  }

  /**
   * Loads a skill from its entry: refuses an entry past the extension's limits or without its own
   * `SKILL.md` in the manifest, reads `SKILL.md`, checks its size and digest, then compares its
   * frontmatter with the entry's field by field. Any failure is a {@link SkillVerificationError}.
   */
  static async load(core: ClientCore, entry: Skill, options?: CallOptions): Promise<LoadedSkill> {
    const listed = entry.resources === 'dynamic' ? undefined : manifestEntry(entry);
    const file = await readFile(core, entry.uri, options);
    if (listed) await verifyFile(file, listed);
    else if (file.bytes.byteLength > MAX_SKILL_BYTES) throw tooLarge(entry.uri);
    const text = file.text ?? decodeUtf8(file);
    const body = verifyFrontmatter(entry.uri, text, entry.frontmatter);
    return new LoadedSkill(core, entry, file, body);
  }

  /** The URI of the skill's root directory, the base of its relative references. */
  get root(): string {
    return skillRoot(this.entry.uri);
  }

  /** The files the held entry lists, or `'dynamic'` when the server publishes none. */
  get files(): readonly SkillResource[] | 'dynamic' {
    return this.entry.resources;
  }

  /**
   * Reads a file of the skill, named by its URI or by a path relative to the skill's root. A file
   * the held entry does not list is refused without a request; a listed file is checked against
   * its size and digest. For a `'dynamic'` skill only files under its root are read, up to the
   * extension's 16 MiB per skill.
   */
  async readFile(file: string, options?: CallOptions): Promise<SkillFile> {
    const uri = resolveSkillFile(this.entry.uri, file);
    if (uri === undefined) {
      throw new SkillVerificationError(file, 'unlisted', `${file} is not a path inside the skill`);
    }
    const cached = this.cache.get(uri);
    if (cached) return cached;
    const listed = this.listed(uri);
    const read = await readFile(this.core, uri, options);
    if (listed) {
      await verifyFile(read, listed);
    } else {
      this.retrievedBytes += read.bytes.byteLength;
      if (this.retrievedBytes > MAX_SKILL_BYTES) throw tooLarge(this.entry.uri);
    }
    this.cache.set(uri, read);
    return read;
  }

  /** The manifest entry of `uri`; undefined for a dynamic skill; a refusal for an unlisted file. */
  private listed(uri: string): SkillResource | undefined {
    if (this.entry.resources === 'dynamic') {
      if (uri.startsWith(`${this.root}/`)) return undefined;
      throw new SkillVerificationError(uri, 'unlisted', `${uri} is outside the skill's root`);
    }
    const listed = this.entry.resources.find((resource) => resource.uri === uri);
    if (listed) return listed;
    throw new SkillVerificationError(
      uri,
      'unlisted',
      `${uri} is not listed in the entry of ${this.entry.uri}`,
    );
  }
}

/** The manifest's line for `SKILL.md` itself, after checking the manifest against the limits. */
function manifestEntry(entry: Skill): SkillResource {
  const resources = entry.resources as readonly SkillResource[];
  const total = resources.reduce((sum, resource) => sum + resource.size, 0);
  if (resources.length > MAX_SKILL_FILES || total > MAX_SKILL_BYTES) throw tooLarge(entry.uri);
  const own = resources.find((resource) => resource.uri === entry.uri);
  if (own) return own;
  throw new SkillVerificationError(
    entry.uri,
    'invalid-entry',
    `the entry of ${entry.uri} does not list its own SKILL.md`,
  );
}

async function readFile(core: ClientCore, uri: string, options?: CallOptions): Promise<SkillFile> {
  const result = (await core.request('resources/read', { uri }, options)) as ReadResourceResult;
  return fileOf(uri, result.contents);
}

function decodeUtf8(file: SkillFile): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(file.bytes);
  } catch {
    throw new SkillVerificationError(file.uri, 'frontmatter', `${file.uri} is not UTF-8 text`);
  }
}

function tooLarge(uri: string): SkillVerificationError {
  return new SkillVerificationError(
    uri,
    'too-large',
    `${uri} is past the extension's limits (${MAX_SKILL_FILES} files, ${MAX_SKILL_BYTES} bytes per skill)`,
  );
}
