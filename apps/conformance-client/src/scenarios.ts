import { authScenarios } from './authScenarios.js';
import { coreScenarios } from './coreScenarios.js';
import type { ScenarioTable } from './scenario.js';

/** Every scenario the fixture answers: the core ones and the `auth/*` ones. */
export const scenarios: ScenarioTable = { ...coreScenarios, ...authScenarios };
