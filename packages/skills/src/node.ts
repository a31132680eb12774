import { loadSkillDirectory } from './loadDirectory.js';
import type { SkillSource } from './skillTypes.js';

export { MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL, loadSkillDirectory } from './loadDirectory.js';

/**
 * The skills of a directory as a source for `skills({ sources })`: the directory itself when it
 * holds a SKILL.md, otherwise each subdirectory that does (see {@link loadSkillDirectory}).
 */
export function skillDirectory(path: string): SkillSource {
  return () => loadSkillDirectory(path);
}
