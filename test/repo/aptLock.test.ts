import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../release/packedPackages.js';

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), 'rondo-apt-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A folder with an `apt-get` that fails `locked` times the way apt does while another apt runs,
 * then says `then` (exit 0, or 100 with an error); every call's arguments go to `calls`.
 */
function fakeApt(name: string, locked: number, then = 'installed'): { bin: string; calls: string } {
  const bin = join(scratch, name);
  const calls = join(bin, 'calls');
  const fails = then.startsWith('E:') ? 'exit 100' : 'exit 0';
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'apt-get'),
    [
      '#!/bin/sh',
      `echo "$*" >> '${calls}'`,
      `n=$(wc -l < '${calls}')`,
      `if [ "$n" -le ${locked} ]; then`,
      '  echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2',
      '  exit 100',
      'fi',
      `echo "${then}"`,
      fails,
      '',
    ].join('\n'),
  );
  chmodSync(join(bin, 'apt-get'), 0o755);
  return { bin, calls };
}

async function aptGet(bin: string, env: Record<string, string>, ...args: string[]) {
  return run('bash', ['-c', `source tooling/scripts/aptGet.sh && apt_get ${args.join(' ')}`], {
    cwd: repoRoot,
    env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, RONDO_APT_POLL: '0', ...env },
  }).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (failure: { code: number; stderr: string }) => ({ code: failure.code, stderr: failure.stderr }),
  );
}

// bootstrap.sh installs Debian packages with apt_get: on a machine where another apt is running
// it waits for the lock instead of failing at once.
describe('bootstrap waits for the apt lock', () => {
  it('tries again while another apt holds the lock, then installs', async () => {
    const apt = fakeApt('busy', 2);
    const result = await aptGet(apt.bin, {}, 'install', '-y', 'swi-prolog-nox');
    expect(result.code).toBe(0);
    expect(result.stderr.match(/another apt holds its lock; waiting/g)).toHaveLength(2);
    expect(result.stderr).toContain('installed');
    const calls = readFileSync(apt.calls, 'utf8').trim().split('\n');
    expect(calls).toHaveLength(3);
    expect(calls[2]).toBe('-o DPkg::Lock::Timeout=0 install -y swi-prolog-nox');
  });

  it("gives up after RONDO_APT_WAIT seconds, with apt's own message", async () => {
    const apt = fakeApt('held', 100);
    const result = await aptGet(apt.bin, { RONDO_APT_WAIT: '0' }, 'update');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Could not get lock /var/lib/apt/lists/lock');
  });

  it('fails at once on any other error', async () => {
    const apt = fakeApt('wrong', 0, 'E: Unable to locate package no-such-package');
    const result = await aptGet(apt.bin, {}, 'install', '-y', 'no-such-package');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Unable to locate package');
    expect(readFileSync(apt.calls, 'utf8').trim().split('\n')).toHaveLength(1);
  });
});
