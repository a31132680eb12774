import type { ScenarioTable } from './scenario.js';

/**
 * The `auth/*` scenarios (OAuth 2.1 client). Kept apart from the core scenarios so the OAuth work
 * lands in its own file; `scenarios.ts` merges this table with the core one.
 */
export const authScenarios: ScenarioTable = {};
