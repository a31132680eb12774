import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TASK_LIMIT_DEFAULTS } from '@rondo/core';
import { MEMORY_EVENT_STORE_DEFAULTS } from '@rondo/transport-http';

// Issue 31, done-when 2: the defaults docs/limits.md gives for the task shares and the byte budgets
// are the code's own. Each option's row is found by the option's name, and its default column must
// read as the value the code exports.

const root = fileURLToPath(new URL('../..', import.meta.url));
const MIB = 1024 * 1024;

/** How limits.md writes a value: whole MiB as `N MiB`, counts with thousands separators. */
function written(value: number, bytes: boolean): string {
  if (bytes && value % MIB === 0) return `${value / MIB} MiB`;
  return value.toLocaleString('en-US');
}

/** The table rows of limits.md, as cells. */
function rows(): string[][] {
  const text = readFileSync(join(root, 'docs/limits.md'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) => line.split('|').map((cell) => cell.trim()));
}

/** The default cell of the row that names `option` in backticks (in its option or default cell). */
function documentedDefault(option: string): string | undefined {
  const named = new RegExp(`\\b${option}\\b`);
  const row = rows().find((cells) => named.test(cells[3] ?? '') || named.test(cells[2] ?? ''));
  return row?.[2];
}

const DEFAULTS: [string, number, boolean][] = [
  ['maxTasksPerOwner', TASK_LIMIT_DEFAULTS.maxTasksPerOwner, false],
  ['maxTaskResultBytes', TASK_LIMIT_DEFAULTS.maxTaskResultBytes, true],
  ['maxTaskBytesPerOwner', TASK_LIMIT_DEFAULTS.maxTaskBytesPerOwner, true],
  ['maxTaskBytes', TASK_LIMIT_DEFAULTS.maxTaskBytes, true],
  ['maxEventBytesPerStream', MEMORY_EVENT_STORE_DEFAULTS.maxEventBytesPerStream, true],
  ['maxEventBytesPerSession', MEMORY_EVENT_STORE_DEFAULTS.maxEventBytesPerSession, true],
  ['maxEventBytes', MEMORY_EVENT_STORE_DEFAULTS.maxEventBytes, true],
  ['maxEventsPerStream', MEMORY_EVENT_STORE_DEFAULTS.maxEventsPerStream, false],
  ['maxEventsPerSession', MEMORY_EVENT_STORE_DEFAULTS.maxEventsPerSession, false],
  ['maxEvents', MEMORY_EVENT_STORE_DEFAULTS.maxEvents, false],
];

describe('docs/limits.md defaults', () => {
  it.each(DEFAULTS)('documents %s with the default the code uses', (option, value, bytes) => {
    const documented = documentedDefault(option);
    expect(documented, `no row names ${option}`).toBeDefined();
    // limits.md writes small counts without a separator (1000) and large ones with it (10,000).
    const spellings = [written(value, bytes), String(value)];
    expect(spellings.some((spelling) => documented!.startsWith(spelling))).toBe(true);
  });
});
