import { SkillVerificationError, type Client } from '@rondo/client';
import { withClient } from './connect.js';
import type { ScenarioRun, ScenarioTable } from './scenario.js';

/**
 * The Skills extension is specified against 2026-07-28; the runner names 2025-11-25 for extension
 * scenarios, which are off the spec timeline, so the fixture speaks the revision the extension needs.
 */
function onSkillsRevision(run: ScenarioRun): ScenarioRun {
  return { ...run, protocolVersion: '2026-07-28' };
}

/** Builds the skill registry from the listing alone, as a host does on connecting: no file is read. */
async function listOnly(client: Client): Promise<void> {
  await client.skills.listAll();
}

/**
 * Lists the skills, then loads each one and reads every file its entry lists, as a host acting on
 * the skill would. A skill whose content fails verification is refused (and reported on stderr):
 * none of its other files is read.
 */
async function loadEverySkill(client: Client): Promise<void> {
  for (const entry of await client.skills.listAll()) {
    try {
      const skill = await client.skills.load(entry);
      const files = skill.files === 'dynamic' ? [] : skill.files;
      for (const file of files) await skill.readFile(file.uri);
    } catch (error) {
      if (!(error instanceof SkillVerificationError)) throw error;
      console.error(`refused ${entry.uri}: ${error.failure}: ${error.message}`);
    }
  }
}

/** The Skills extension's client scenarios (SEP-2640), by name. */
export const skillScenarios: ScenarioTable = {
  'sep-2640-client-no-prefetch': (run) => withClient(onSkillsRevision(run), listOnly),
  'sep-2640-client-verify-digest': (run) => withClient(onSkillsRevision(run), loadEverySkill),
  'sep-2640-client-verify-size': (run) => withClient(onSkillsRevision(run), loadEverySkill),
  'sep-2640-client-verify-frontmatter': (run) => withClient(onSkillsRevision(run), loadEverySkill),
};
