import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { proxy } from '../src/index.js';

// An upstream that never answers its initialize keeps the link connecting for up to twice
// connectTimeoutMs. Closing the proxy then must end its process at once, not after the timeout:
// a gateway stopped meanwhile (and killed when it takes too long) would leave the process behind.

const folder = mkdtempSync(join(tmpdir(), 'rondo-silent-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** True while a process with this pid exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a proxy closed while its upstream is still connecting', () => {
  it('ends the silent upstream process well before the connect timeout', async () => {
    const pidFile = join(folder, 'pid');
    const silent = `require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); process.stdin.resume(); setInterval(() => {}, 60000);`;
    const provider = proxy(
      { command: process.execPath, args: ['-e', silent] },
      { name: 'silent', connectTimeoutMs: 60_000 },
    );
    const starting = provider.upstream.start().catch(() => undefined);
    await expect.poll(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '').toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(pid)).toBe(true);
    const began = Date.now();
    await provider.close();
    await starting;
    // Far below the 60 s connect timeout (twice that before the deadline gives up).
    expect(Date.now() - began).toBeLessThan(scaled(10_000));
    await expect.poll(() => alive(pid), { timeout: scaled(5_000) }).toBe(false);
  });
});
