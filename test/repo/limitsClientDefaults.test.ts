import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LISTEN_IDLE_TIMEOUT_MS } from '../../packages/adapter-2026/src/options.js';
import { resolveOptions } from '../../packages/transport-http/src/options.js';

// Issue 31, done-when 2: the defaults docs/limits.md states for the per-client limits are the
// ones the code applies.

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The default cell of the limits table row whose option cell names `option`. */
function documentedDefault(option: string): string {
  const text = readFileSync(join(root, 'docs/limits.md'), 'utf8');
  const row = text
    .split('\n')
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .find((cells) => cells[3]?.includes(option));
  if (!row?.[2]) throw new Error(`docs/limits.md has no row for ${option}`);
  return row[2];
}

/** `100`, `10,000`, `5 min`, `30 s` as a number (of milliseconds, for durations). */
function valueOf(cell: string): number {
  const match = /^([\d,]+)\s*(min|s|ms)?$/.exec(cell);
  if (!match) throw new Error(`unreadable default ${cell}`);
  const number = Number(match[1]!.replace(/,/g, ''));
  const unit = { min: 60_000, s: 1000, ms: 1 }[match[2] ?? ''] ?? 1;
  return number * unit;
}

describe('docs/limits.md defaults of the per-client limits', () => {
  const resolved = resolveOptions({});
  it.each([
    ['maxSessionsPerClient', resolved.maxSessionsPerClient],
    ['maxStreamsPerClient', resolved.maxStreamsPerClient],
    ['maxSessions`', resolved.maxSessions],
    ['maxOpenStreams', resolved.maxOpenStreams],
    ['listenIdleTimeoutMs', DEFAULT_LISTEN_IDLE_TIMEOUT_MS],
  ])('%s is what the code applies', (option, applied) => {
    expect(valueOf(documentedDefault(option))).toBe(applied);
  });
});
