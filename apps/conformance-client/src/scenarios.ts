import { authScenarios } from './authScenarios.js';
import { coreScenarios } from './coreScenarios.js';
import { extensionAuthScenarios } from './extensionAuthScenarios.js';
import type { ScenarioTable } from './scenario.js';
import { skillScenarios } from './skillScenarios.js';

/** Every scenario the fixture answers: the core ones, the `auth/*` ones (extensions included) and the Skills extension's. */
export const scenarios: ScenarioTable = {
  ...coreScenarios,
  ...authScenarios,
  ...extensionAuthScenarios,
  ...skillScenarios,
};
