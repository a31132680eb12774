import { isPlainObject, type Resource } from '@rondo/protocol';
import type { ClientCore } from '../client.js';
import { NotDeclaredByServerError, ProtocolViolationError } from '../errors.js';
import { walkPages } from '../pagination.js';
import type { CallOptions } from '../rpc.js';
import {
  SKILLS_EXTENSION,
  checkSkillEntry,
  type DirectoryPage,
  type Skill,
  type SkillsPage,
} from './entries.js';
import { LoadedSkill } from './loadedSkill.js';

/**
 * The Skills extension (`io.modelcontextprotocol/skills`, SEP-2640) on a connected client:
 * listing and getting skill entries, reading directory resources, and loading a skill with its
 * content verified against its entry. Nothing is read ahead of need: listing reads no file.
 *
 * ```ts
 * const [entry] = await client.skills.listAll();
 * const skill = await client.skills.load(entry);
 * const forms = await skill.readFile('references/FORMS.md');
 * ```
 */
export class ClientSkills {
  constructor(private readonly core: ClientCore) {}

  /** Whether the server declares the extension (skills requests are sent only then). */
  get available(): boolean {
    return this.settings() !== undefined;
  }

  /** Whether the server declares `directoryRead: true` (directory reads are sent only then). */
  get directoryRead(): boolean {
    return this.settings()?.directoryRead === true;
  }

  /** One page of `skills/list`; entries that do not fit the extension are left out and reported as `violation` events. */
  async list(cursor?: string, options?: CallOptions): Promise<SkillsPage> {
    this.require('skills/list');
    const result = await this.core.request('skills/list', cursorParams(cursor), options);
    const listed = checkPage(result, 'skills/list', 'skills');
    const skills: Skill[] = [];
    for (const value of listed) {
      const checked = checkSkillEntry(value);
      if (checked.ok) skills.push(checked.skill);
      else {
        const error = new ProtocolViolationError(
          `skills/list: an entry left out (${checked.reason})`,
        );
        this.core.events.emit('violation', error);
      }
    }
    return { ...result, skills };
  }

  /** Every skill entry, walking all pages. An empty listing does not mean the server has no skills. */
  listAll(options?: CallOptions): Promise<Skill[]> {
    return walkPages((cursor) => this.list(cursor, options), 'skills');
  }

  /** The entry of one skill, by the URI of its `SKILL.md` (listed or not). */
  async get(uri: string, options?: CallOptions): Promise<Skill> {
    this.require('skills/get');
    const result = await this.core.request('skills/get', { uri }, options);
    const checked = checkSkillEntry(result.skill);
    if (!checked.ok) {
      throw new ProtocolViolationError(
        `skills/get: the entry does not fit the extension (${checked.reason})`,
      );
    }
    return checked.skill;
  }

  /** One page of `resources/directory/read`: the direct children of a directory resource. */
  async readDirectory(uri: string, cursor?: string, options?: CallOptions): Promise<DirectoryPage> {
    if (!this.directoryRead) {
      throw new NotDeclaredByServerError(
        'resources/directory/read',
        `${SKILLS_EXTENSION} with directoryRead: true`,
      );
    }
    const params: Record<string, unknown> = { uri };
    if (cursor !== undefined) params.cursor = cursor;
    const result = await this.core.request('resources/directory/read', params, options);
    checkPage(result, 'resources/directory/read', 'resources');
    return result as DirectoryPage;
  }

  /** Every child of a directory resource, walking all pages. */
  readAllDirectory(uri: string, options?: CallOptions): Promise<Resource[]> {
    return walkPages((cursor) => this.readDirectory(uri, cursor, options), 'resources');
  }

  /**
   * Loads a skill: from an entry the caller holds, or from the URI of its `SKILL.md` (its entry
   * is fetched with `skills/get` first). `SKILL.md` is read and verified (size, digest,
   * frontmatter); a failure is a `SkillVerificationError` and nothing of the content is returned.
   */
  async load(skill: Skill | string, options?: CallOptions): Promise<LoadedSkill> {
    this.require('resources/read');
    const entry = typeof skill === 'string' ? await this.get(skill, options) : skill;
    return LoadedSkill.load(this.core, entry, options);
  }

  private settings(): Record<string, unknown> | undefined {
    const extensions = (this.core.capabilities as { extensions?: unknown }).extensions;
    if (!isPlainObject(extensions)) return undefined;
    const settings = extensions[SKILLS_EXTENSION];
    return isPlainObject(settings) ? settings : undefined;
  }

  private require(method: string): void {
    if (!this.available) throw new NotDeclaredByServerError(method, SKILLS_EXTENSION);
  }
}

function checkPage(result: Record<string, unknown>, method: string, key: string): unknown[] {
  const items = result[key];
  if (!Array.isArray(items)) {
    throw new ProtocolViolationError(`${method}: the result has no ${key} array`);
  }
  if (result.nextCursor !== undefined && typeof result.nextCursor !== 'string') {
    throw new ProtocolViolationError(`${method}: nextCursor is not a string`);
  }
  if (
    key === 'resources' &&
    !items.every((item) => isPlainObject(item) && typeof item.uri === 'string')
  ) {
    throw new ProtocolViolationError(`${method}: a child has no uri`);
  }
  return items;
}

function cursorParams(cursor: string | undefined): Record<string, unknown> | undefined {
  return cursor === undefined ? undefined : { cursor };
}
