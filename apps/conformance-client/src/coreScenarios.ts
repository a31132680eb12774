import type { ScenarioTable } from './scenario.js';

/** The non-auth client scenarios. */
export const coreScenarios: ScenarioTable = {};
