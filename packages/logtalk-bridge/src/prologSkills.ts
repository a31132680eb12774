import type { Extension } from '@rondo/core';
import type { PrologSkill } from './skills.js';
import { skills, type SkillParts } from '@rondo/skills';
import { skillDirectory } from '@rondo/skills/node';

/**
 * The Skills extension over what a Prolog provider's `skills/1` declares (its `skills` member):
 * its skills defined in Prolog and its skill directories, with `resources/directory/read`. The
 * Logtalk host and the gateway's `prolog` entries serve a provider's skills with it.
 */
export function prologSkills(declared: readonly PrologSkill[]): Extension {
  const parts: SkillParts[] = [];
  const directories: string[] = [];
  for (const skill of declared) {
    if (skill.kind === 'directory') directories.push(skill.directory);
    else
      parts.push({
        name: skill.name,
        description: skill.description,
        instructions: skill.instructions,
        frontmatter: skill.frontmatter,
        files: skill.files,
      });
  }
  return skills({ directoryRead: true, skills: parts, sources: directories.map(skillDirectory) });
}
