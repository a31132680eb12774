import { RondoError } from '@rondo/protocol';
import { isPlainObject, type JsonObject } from '@rondo/protocol';
import { parse, stringify } from 'yaml';

/** The Agent Skills naming rule: 1-64 lower-case letters, digits and single inner hyphens. */
const SKILL_NAME = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** The `---` delimited YAML block that opens a SKILL.md (a byte-order mark allowed before it). */
const FRONTMATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** A SKILL.md that cannot be served, and why (the loader adds where it comes from). */
export class SkillDefinitionError extends RondoError {
  override readonly code: string = 'skills.skill-definition';
  override readonly name = 'SkillDefinitionError';
}

/** What a SKILL.md declares: its frontmatter as JSON, and the two members every skill has. */
export interface SkillHeader {
  readonly frontmatter: JsonObject;
  readonly name: string;
  readonly description: string;
}

/**
 * Reads the frontmatter of a SKILL.md: a YAML mapping with a `name` that follows the naming rule
 * and a non-empty `description`. Anything else is a {@link SkillDefinitionError} saying what.
 */
export function readSkillHeader(markdown: string): SkillHeader {
  const block = FRONTMATTER.exec(markdown);
  if (block === null)
    throw new SkillDefinitionError('SKILL.md does not begin with a --- delimited YAML frontmatter');
  let value: unknown;
  try {
    value = parse(block[1] ?? '');
  } catch (failure) {
    const reason = failure instanceof Error ? failure.message.split('\n')[0] : String(failure);
    throw new SkillDefinitionError(`the frontmatter is not valid YAML: ${reason}`);
  }
  if (!isPlainObject(value))
    throw new SkillDefinitionError('the frontmatter is not a YAML mapping');
  // YAML dates and the like become JSON here, as a client reading the file would see them.
  const frontmatter = JSON.parse(JSON.stringify(value)) as JsonObject;
  const { name, description } = frontmatter;
  if (typeof name !== 'string' || !SKILL_NAME.test(name))
    throw new SkillDefinitionError(
      `the frontmatter name ${JSON.stringify(name)} is not a skill name (1-64 lower-case letters, digits and single hyphens, not at either end)`,
    );
  if (typeof description !== 'string' || description.trim() === '')
    throw new SkillDefinitionError(`the skill "${name}" has no description in its frontmatter`);
  return { frontmatter, name, description };
}

/** A SKILL.md from its frontmatter and its instructions. */
export function writeSkillMarkdown(frontmatter: JsonObject, instructions: string): string {
  return `---\n${stringify(frontmatter).trimEnd()}\n---\n\n${instructions.trim()}\n`;
}

/** True when `name` follows the Agent Skills naming rule. */
export function isSkillName(name: string): boolean {
  return SKILL_NAME.test(name);
}
