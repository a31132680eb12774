import { authScenarios } from './authScenarios.js';
import { coreScenarios } from './coreScenarios.js';
import type { ScenarioTable } from './scenario.js';
import { skillScenarios } from './skillScenarios.js';

/** Every scenario the fixture answers: the core ones, the `auth/*` ones and the Skills extension's. */
export const scenarios: ScenarioTable = { ...coreScenarios, ...authScenarios, ...skillScenarios };
