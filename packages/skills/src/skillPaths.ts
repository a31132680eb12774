import { ErrorCode, McpError } from '@rondo/protocol';

/** The scheme every skill resource is served under. */
export const SKILL_SCHEME = 'skill://';

/** A skill resource URI split into its skill and the path inside the skill's root. */
export interface SkillLocation {
  readonly skill: string;
  /** `/`-separated, no empty, `.` or `..` segment; `''` for the skill's root. */
  readonly path: string;
}

/** `skill://<name>/<path>` (the root itself without `/<path>`). */
export function skillUri(skill: string, path = ''): string {
  return path === '' ? `${SKILL_SCHEME}${skill}` : `${SKILL_SCHEME}${skill}/${path}`;
}

/**
 * Reads a `skill://` URI, or `undefined` when the URI is not one. A path that would leave the
 * skill's root (a `..` or `.` segment, an empty segment as in an absolute path, a backslash, a NUL,
 * or a percent-encoding of one of them) is -32602 naming what is wrong: the URI never reaches a
 * file system.
 */
export function parseSkillUri(uri: string): SkillLocation | undefined {
  if (!uri.startsWith(SKILL_SCHEME)) return undefined;
  const rest = uri.slice(SKILL_SCHEME.length);
  const [skill = '', ...segments] = rest.split('/');
  if (skill === '') throw escapes(uri, 'it names no skill');
  const decoded = segments.map((segment) => decodeSegment(uri, segment));
  // A trailing slash names the directory itself.
  if (decoded.length > 0 && decoded.at(-1) === '') decoded.pop();
  decoded.forEach((segment) => checkSegment(uri, segment));
  return { skill, path: decoded.join('/') };
}

/**
 * Checks a path relative to a skill's root as a provider declared it (a file of a skill defined in
 * code, say): the same rules as a URI's path. Throws a plain `Error` saying what is wrong.
 */
export function checkRelativePath(path: string): void {
  if (path === '') throw new Error('the path is empty');
  if (path.includes('\0')) throw new Error(`the path ${JSON.stringify(path)} contains a NUL`);
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path))
    throw new Error(`the path ${JSON.stringify(path)} is absolute; expected one inside the skill`);
  for (const segment of path.split('/')) {
    if (segment === '..' || segment === '.' || segment === '' || segment.includes('\\'))
      throw new Error(
        `the path ${JSON.stringify(path)} escapes the skill's root (segment ${JSON.stringify(segment)})`,
      );
  }
}

function decodeSegment(uri: string, segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw escapes(uri, `the segment ${JSON.stringify(segment)} is not valid percent-encoding`);
  }
}

function checkSegment(uri: string, segment: string): void {
  if (segment.includes('\0')) throw escapes(uri, 'it contains a NUL');
  if (segment === '') throw escapes(uri, 'it has an empty segment (an absolute path)');
  if (segment === '..' || segment === '.')
    throw escapes(uri, `it has a "${segment}" segment, which would leave the skill's root`);
  if (segment.includes('\\') || segment.includes('/'))
    throw escapes(uri, `the segment ${JSON.stringify(segment)} holds a path separator`);
}

function escapes(uri: string, reason: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Invalid skill resource URI ${uri}: ${reason}`, {
    uri,
  });
}
