import { isPlainObject, type ResourceContents } from '@rondo/protocol';
import { parseDocument } from 'yaml';
import { SkillVerificationError } from '../errors.js';
import type { SkillFrontmatter, SkillResource } from './entries.js';

/** A file of a skill as read: its raw bytes, and its text when the server sent text. */
export interface SkillFile {
  readonly uri: string;
  readonly mimeType: string | undefined;
  /** The raw bytes the digest covers. */
  readonly bytes: Uint8Array;
  /** The content as text (UTF-8), when the server sent it as text. */
  readonly text: string | undefined;
}

/** The content of `uri` in a `resources/read` result, as raw bytes. */
export function fileOf(uri: string, contents: readonly ResourceContents[]): SkillFile {
  const match =
    contents.find((item) => item.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
  if (!match)
    throw new SkillVerificationError(
      uri,
      'missing',
      `the read of ${uri} returned no content for it`,
    );
  const mimeType = match.mimeType;
  if ('text' in match && typeof match.text === 'string') {
    return { uri, mimeType, bytes: new TextEncoder().encode(match.text), text: match.text };
  }
  if ('blob' in match && typeof match.blob === 'string') {
    return { uri, mimeType, bytes: decodeBase64(uri, match.blob), text: undefined };
  }
  throw new SkillVerificationError(
    uri,
    'missing',
    `the read of ${uri} returned neither text nor blob`,
  );
}

/** Checks a file's bytes against its manifest entry: the size first (it is cheaper), then the digest. */
export async function verifyFile(file: SkillFile, listed: SkillResource): Promise<void> {
  if (file.bytes.byteLength !== listed.size) {
    throw new SkillVerificationError(
      file.uri,
      'size',
      `${file.uri} is ${file.bytes.byteLength} bytes, the skill's entry says ${listed.size}`,
    );
  }
  const digest = await sha256(file.bytes);
  if (digest !== listed.digest) {
    throw new SkillVerificationError(
      file.uri,
      'digest',
      `${file.uri} hashes to ${digest}, the skill's entry says ${listed.digest}`,
    );
  }
}

/**
 * Parses the YAML frontmatter at the head of a `SKILL.md` and compares it field by field with the
 * entry's: any difference (a field missing, added or changed) refuses the skill.
 */
export function verifyFrontmatter(uri: string, text: string, expected: SkillFrontmatter): string {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) {
    throw new SkillVerificationError(
      uri,
      'frontmatter',
      `${uri} does not begin with YAML frontmatter`,
    );
  }
  // The core schema yields JSON values only (no dates); aliases are capped against expansion bombs.
  let parsed: unknown;
  try {
    const document = parseDocument(match[1]!, { schema: 'core', uniqueKeys: true });
    if (document.errors.length > 0) throw document.errors[0]!;
    parsed = document.toJS({ maxAliasCount: 50 });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SkillVerificationError(
      uri,
      'frontmatter',
      `${uri} has frontmatter that is not valid YAML: ${reason}`,
    );
  }
  const difference = firstDifference(parsed, expected, 'frontmatter');
  if (difference !== undefined) {
    throw new SkillVerificationError(
      uri,
      'frontmatter',
      `${uri}'s frontmatter differs from the skill's entry at ${difference}`,
    );
  }
  return text.slice(match[0].length);
}

/** The path of the first place two JSON values differ, or undefined when they are equal. */
function firstDifference(actual: unknown, expected: unknown, path: string): string | undefined {
  if (Array.isArray(actual) && Array.isArray(expected)) {
    if (actual.length !== expected.length) return path;
    for (let index = 0; index < actual.length; index += 1) {
      const found = firstDifference(actual[index], expected[index], `${path}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (isPlainObject(actual) && isPlainObject(expected)) {
    const keys = new Set([...Object.keys(actual), ...Object.keys(expected)]);
    for (const key of keys) {
      if (!(key in actual) || !(key in expected)) return `${path}.${key}`;
      const found = firstDifference(actual[key], expected[key], `${path}.${key}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return Object.is(actual, expected) ? undefined : path;
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const byte of hash) hex += byte.toString(16).padStart(2, '0');
  return `sha256:${hex}`;
}

function decodeBase64(uri: string, blob: string): Uint8Array {
  let binary: string;
  try {
    binary = atob(blob);
  } catch {
    throw new SkillVerificationError(
      uri,
      'missing',
      `the read of ${uri} returned a blob that is not base64`,
    );
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
