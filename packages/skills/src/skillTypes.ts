import type { JsonObject } from '@rondo/protocol';
import { readSkillHeader, writeSkillMarkdown } from './frontmatter.js';
import { checkRelativePath } from './skillPaths.js';

/** A file's content as a skill in code gives it: text (UTF-8) or bytes. */
export type SkillContent = string | Uint8Array;

/** A skill defined in code, from its parts: the SKILL.md is written from them. */
export interface SkillParts {
  /** The skill's name (the naming rule of Agent Skills: `pdf-forms`). */
  readonly name: string;
  readonly description: string;
  /** Further frontmatter members (`license`, `metadata`, ...). */
  readonly frontmatter?: JsonObject;
  /** The body of SKILL.md, after its frontmatter. */
  readonly instructions: string;
  /** Further files by path inside the skill (`references/forms.md`). */
  readonly files?: Readonly<Record<string, SkillContent>>;
  /**
   * Serves files not known in advance, by path inside the skill: the skill's manifest is then
   * `"dynamic"`. `undefined` for a file it does not have.
   */
  readonly readFile?: (path: string) => Promise<SkillContent | undefined>;
}

/** A skill defined in code from a whole SKILL.md (its frontmatter names it). */
export interface SkillDocument {
  /** The whole SKILL.md, frontmatter first. */
  readonly markdown: string;
  readonly files?: Readonly<Record<string, SkillContent>>;
  readonly readFile?: (path: string) => Promise<SkillContent | undefined>;
}

/** Where skills come from besides code: read when the server loads its catalog. */
export type SkillSource = () => Promise<readonly LoadedSkill[]>;

/** One file of a skill, as it is served. */
export interface SkillFile {
  /** The path inside the skill's root, `/`-separated (`SKILL.md`, `references/forms.md`). */
  readonly path: string;
  readonly bytes: Uint8Array;
  readonly mimeType: string;
}

/** A skill ready to serve. */
export interface LoadedSkill {
  readonly name: string;
  readonly description: string;
  readonly frontmatter: JsonObject;
  /** Every file known in advance, SKILL.md included, by path. */
  readonly files: ReadonlyMap<string, SkillFile>;
  /** Where the skill came from, for messages (a directory, "code"). */
  readonly origin: string;
  readonly readFile?: ((path: string) => Promise<SkillContent | undefined>) | undefined;
}

const utf8 = new TextEncoder();

/** The bytes of a file's content. */
export function bytesOf(content: SkillContent): Uint8Array {
  return typeof content === 'string' ? utf8.encode(content) : content;
}

/**
 * A skill defined in code (from its parts or from a whole SKILL.md), checked now: a bad name or
 * frontmatter, or a file path that leaves the skill's root, throws an `Error` saying which.
 */
export function loadCodeSkill(spec: SkillParts | SkillDocument): LoadedSkill {
  const markdown =
    'markdown' in spec
      ? spec.markdown
      : writeSkillMarkdown(
          { name: spec.name, description: spec.description, ...spec.frontmatter },
          spec.instructions,
        );
  const header = readSkillHeader(markdown);
  const files = new Map<string, SkillFile>();
  files.set('SKILL.md', { path: 'SKILL.md', bytes: bytesOf(markdown), mimeType: 'text/markdown' });
  for (const [path, content] of Object.entries(spec.files ?? {})) {
    try {
      checkRelativePath(path);
    } catch (failure) {
      throw new Error(`skill "${header.name}": ${(failure as Error).message}`);
    }
    if (path === 'SKILL.md')
      throw new Error(`skill "${header.name}": SKILL.md is written from the skill itself`);
    files.set(path, { path, bytes: bytesOf(content), mimeType: mimeTypeOf(path) });
  }
  return { ...header, files, origin: 'code', readFile: spec.readFile };
}

/** MIME types by file extension; anything else is served as bytes. */
const MIME_TYPES: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  csv: 'text/csv',
  html: 'text/html',
  xml: 'application/xml',
  py: 'text/x-python',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/x-typescript',
  sh: 'text/x-shellscript',
  pl: 'text/x-prolog',
  lgt: 'text/x-logtalk',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
};

/** The MIME type a skill file is served with, from its extension. */
export function mimeTypeOf(path: string): string {
  const dot = path.lastIndexOf('.');
  const extension = dot < 0 ? '' : path.slice(dot + 1).toLowerCase();
  return MIME_TYPES[extension] ?? 'application/octet-stream';
}

/** True when a file of this type is served as text (`text`), otherwise as base64 (`blob`). */
export function isTextType(mimeType: string): boolean {
  return (
    mimeType.startsWith('text/') ||
    mimeType === 'application/json' ||
    mimeType === 'application/yaml' ||
    mimeType === 'application/xml' ||
    mimeType === 'image/svg+xml'
  );
}
