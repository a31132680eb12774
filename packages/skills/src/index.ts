export { skills, SKILLS_EXTENSION, type SkillsOptions } from './skillsExtension.js';
export { SkillDefinitionError, readSkillHeader, type SkillHeader } from './frontmatter.js';
export { parseSkillUri, skillUri, type SkillLocation } from './skillPaths.js';
export { loadCodeSkill, mimeTypeOf } from './skillTypes.js';
export type {
  LoadedSkill,
  SkillContent,
  SkillDocument,
  SkillFile,
  SkillParts,
  SkillSource,
} from './skillTypes.js';
