import { z } from 'zod';
import type { Resource } from '@rondo/protocol';
import type { Page } from '../types.js';

/** The Skills extension's identifier, as servers declare it under `capabilities.extensions`. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** Files per skill every conforming host accepts (the extension's limit); larger skills are refused. */
export const MAX_SKILL_FILES = 512;

/** Bytes per skill every conforming host accepts (16 MiB, the extension's limit). */
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;

const SkillResourceSchema = z
  .object({
    uri: z.string().min(1),
    digest: z.string().regex(/^sha256:[0-9a-f]{64}$/, 'sha256:<64 lowercase hex digits>'),
    size: z.number().int().nonnegative(),
  })
  .loose();

const SkillEntrySchema = z
  .object({
    uri: z.string().min(1),
    frontmatter: z.object({ name: z.string(), description: z.string() }).loose(),
    resources: z.union([z.array(SkillResourceSchema), z.literal('dynamic')]),
  })
  .loose();

/** A file of a skill, with the SHA-256 digest (`sha256:<hex>`) and byte length of its raw content. */
export interface SkillResource {
  readonly uri: string;
  readonly digest: string;
  readonly size: number;
  readonly [member: string]: unknown;
}

/** A skill's `SKILL.md` frontmatter as the server rendered it: every field the author wrote. */
export interface SkillFrontmatter {
  readonly name: string;
  readonly description: string;
  readonly [field: string]: unknown;
}

/**
 * One skill's entry, as `skills/list` and `skills/get` give it: the URI of its `SKILL.md`, its
 * frontmatter, and the manifest of its files (or `'dynamic'` for generated content, which cannot
 * be verified).
 */
export interface Skill {
  readonly uri: string;
  readonly frontmatter: SkillFrontmatter;
  readonly resources: readonly SkillResource[] | 'dynamic';
  readonly [member: string]: unknown;
}

/** A page of `skills/list`: the entries that fit the extension (the others are reported as violations). */
export interface SkillsPage extends Page {
  readonly skills: Skill[];
}

/** A page of `resources/directory/read`: the direct children of a directory resource. */
export interface DirectoryPage extends Page {
  readonly resources: Resource[];
}

/** An entry that fits the extension, or why it does not. */
export type EntryCheck = { ok: true; skill: Skill } | { ok: false; reason: string };

/** Checks one skill entry; an entry whose `resources` is neither an array nor `'dynamic'` is refused. */
export function checkSkillEntry(value: unknown): EntryCheck {
  const parsed = SkillEntrySchema.safeParse(value);
  if (parsed.success) return { ok: true, skill: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue?.path.join('.') || 'entry';
  return { ok: false, reason: `${where}: ${issue?.message ?? 'invalid'}` };
}

/** The directory holding a skill's `SKILL.md`: the base its relative references resolve against. */
export function skillRoot(skillUri: string): string {
  const slash = skillUri.lastIndexOf('/');
  return slash === -1 ? skillUri : skillUri.slice(0, slash);
}

/**
 * The URI of a file of the skill, given as a URI or as a path relative to the skill's root
 * (`references/FORMS.md`). `.` and `..` segments are refused: a reference never leaves the skill.
 */
export function resolveSkillFile(skillUri: string, file: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(file)) return file;
  const segments = file.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    return undefined;
  }
  return `${skillRoot(skillUri)}/${file}`;
}
