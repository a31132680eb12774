import { lstat, readFile, readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { SkillDefinitionError, readSkillHeader } from './frontmatter.js';
import { mimeTypeOf, type LoadedSkill, type SkillFile } from './skillTypes.js';

/** What one skill may hold, after SEP-2640's limits: 512 files and 16 MiB in all. */
export const MAX_FILES_PER_SKILL = 512;
export const MAX_BYTES_PER_SKILL = 16 * 1024 * 1024;

/**
 * The skills of a directory: the directory itself when it holds a SKILL.md, otherwise each
 * subdirectory that does (in name order). Each skill's files are read now, once: every file under
 * its root, except names starting with a dot. A symbolic link whose target is outside the skill's
 * root, a link to a directory, a name holding a backslash, a SKILL.md whose frontmatter name is not
 * its directory's name, or a skill past the limits is a {@link SkillDefinitionError} naming the
 * file.
 */
export async function loadSkillDirectory(directory: string): Promise<LoadedSkill[]> {
  if (await isFile(join(directory, 'SKILL.md'))) return [await loadSkill(directory)];
  const entries = await readdir(directory, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
  const skills: LoadedSkill[] = [];
  for (const name of names) {
    const root = join(directory, name);
    if (await isFile(join(root, 'SKILL.md'))) skills.push(await loadSkill(root));
  }
  return skills;
}

async function loadSkill(root: string): Promise<LoadedSkill> {
  const realRoot = await realpath(root);
  const files = new Map<string, SkillFile>();
  const budget = { files: 0, bytes: 0 };
  await walk(realRoot, realRoot, files, budget);
  const manifest = files.get('SKILL.md');
  if (manifest === undefined) throw new SkillDefinitionError(`${root}: no SKILL.md`);
  const where = join(root, 'SKILL.md');
  let header;
  try {
    header = readSkillHeader(new TextDecoder().decode(manifest.bytes));
  } catch (failure) {
    throw new SkillDefinitionError(`${where}:1: ${(failure as Error).message}`);
  }
  const folder = realRoot.split(sep).at(-1) ?? '';
  if (header.name !== folder && root.split(sep).at(-1) !== header.name)
    throw new SkillDefinitionError(
      `${where}:1: the frontmatter name "${header.name}" is not the skill's directory name "${folder}"`,
    );
  return { ...header, files, origin: root };
}

async function walk(
  root: string,
  directory: string,
  files: Map<string, SkillFile>,
  budget: { files: number; bytes: number },
): Promise<void> {
  const entries = await readdir(directory, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(directory, entry.name);
    if (entry.name.includes('\\'))
      throw new SkillDefinitionError(`${path}: a file name holding a backslash cannot be served`);
    const target = entry.isSymbolicLink() ? await linkTarget(root, path) : path;
    const info = await lstat(target);
    if (info.isDirectory()) {
      if (target !== path)
        throw new SkillDefinitionError(`${path}: a symbolic link to a directory is not served`);
      await walk(root, path, files, budget);
    } else if (info.isFile()) {
      budget.files += 1;
      budget.bytes += info.size;
      if (budget.files > MAX_FILES_PER_SKILL)
        throw new SkillDefinitionError(`${root}: more than ${MAX_FILES_PER_SKILL} files`);
      if (budget.bytes > MAX_BYTES_PER_SKILL)
        throw new SkillDefinitionError(`${root}: more than ${MAX_BYTES_PER_SKILL} bytes of files`);
      const inside = relative(root, path).split(sep).join('/');
      files.set(inside, {
        path: inside,
        bytes: await readFile(target),
        mimeType: mimeTypeOf(inside),
      });
    }
  }
}

/** Where a symbolic link leads, when that is inside the skill's root. */
async function linkTarget(root: string, link: string): Promise<string> {
  let target: string;
  try {
    target = await realpath(link);
  } catch {
    throw new SkillDefinitionError(`${link}: a symbolic link to nothing`);
  }
  if (target !== root && !target.startsWith(root + sep))
    throw new SkillDefinitionError(
      `${link}: a symbolic link out of the skill's root (${root}) to ${target} is refused`,
    );
  return target;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
