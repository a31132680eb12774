import { LOG_LEVELS, type LogLevel } from '../contracts/context.js';

/** Severity rank of each level (its place in `LOG_LEVELS`), so a log call filters without a search. */
export const LOG_LEVEL_RANK: Readonly<Record<LogLevel, number>> = Object.fromEntries(
  LOG_LEVELS.map((level, rank) => [level, rank]),
) as Record<LogLevel, number>;

/** True when `value` names a log level. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && Object.hasOwn(LOG_LEVEL_RANK, value);
}
