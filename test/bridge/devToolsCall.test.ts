import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIRDS_PL, requireBuiltHost } from './support/paths.js';

// Issue 29: `rondo-logtalk call FILE` without a tool lists what there is to call, and
// `call --help` is the help, not a usage mistake.

function host(...args: string[]) {
  return spawnSync(process.execPath, [requireBuiltHost(), ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '' },
  });
}

describe(
  'rondo-logtalk call, for the user who does not know the tools yet',
  { timeout: 90_000 },
  () => {
    it('lists the tools of FILE when no tool is named, and exits 0', () => {
      const run = host('call', BIRDS_PL);
      expect(run.status).toBe(0);
      expect(run.stdout.trim().split('\n')).toEqual([
        'identify_bird: Asks about a bird you saw and names it.',
      ]);
      expect(run.stderr).toContain("rondo-logtalk call FILE TOOL '{json arguments}'");
    });

    it('prints the help for call --help', () => {
      const run = host('call', '--help');
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('call FILE          list the tools FILE offers');
      expect(run.stderr).toBe('');
    });
  },
);
