import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createPrologProvider,
  findLogtalkHome,
  PrologConfigurationError,
  PrologLoadError,
} from '../src/index.js';
import { logtalkHomeForTests } from '@rondo/test-support/logtalkHome';
import { fixture, logSink, makeContext } from './helpers.js';

// Issue 17: workers starting at once must not share a LOGTALKUSER scratch directory (Logtalk
// compiles its built-in entities there and a worker once read another's half-written file), the
// user's real LOGTALKUSER must stay untouched, and Logtalk must be found or the error say how.

const home = logtalkHomeForTests();
const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Runs `body` with LOGTALKUSER set to `dir` (or removed), restoring it afterwards. */
async function withLogtalkUser<T>(dir: string | undefined, body: () => Promise<T>): Promise<T> {
  const saved = process.env.LOGTALKUSER;
  if (dir === undefined) delete process.env.LOGTALKUSER;
  else process.env.LOGTALKUSER = dir;
  try {
    return await body();
  } finally {
    if (saved === undefined) delete process.env.LOGTALKUSER;
    else process.env.LOGTALKUSER = saved;
  }
}

describe('Logtalk workers each get a private LOGTALKUSER', () => {
  it('starts four workers at once, each compiling into its own directory; the real one gets nothing', async () => {
    const real = tempDir('rondo-real-user-');
    mkdirSync(join(real, 'scratch'));
    writeFileSync(join(real, 'marker.txt'), 'mine');
    const seen = await withLogtalkUser(real, async () => {
      const provider = await createPrologProvider({
        files: [fixture('environment.lgt')],
        workers: 4,
        onLog: logSink().onLog,
      });
      // Four calls at once take the four idle workers.
      const answers = await Promise.all(
        [1, 2, 3, 4].map(() => provider.callTool!('user_dir', {}, makeContext())),
      );
      await provider.close();
      return answers.map(
        (a) => (a as unknown as { structured: { Dir: string; Marker: string } }).structured,
      );
    });
    const dirs = new Set(seen.map((s) => s.Dir));
    expect(dirs.size).toBe(4);
    for (const dir of dirs) {
      expect(dir).not.toBe(`${real}/`);
      expect(existsSync(dir)).toBe(false); // removed when its worker closed
    }
    expect(seen.map((s) => s.Marker)).toEqual(['seen', 'seen', 'seen', 'seen']);
    expect(readdirSync(join(real, 'scratch'))).toEqual([]);
    expect(readdirSync(real).sort()).toEqual(['marker.txt', 'scratch']);
  });

  it('keeps the line of a compile error when LOGTALKUSER does not exist yet', async () => {
    const missing = join(tempDir('rondo-no-user-'), 'not-yet');
    const failure = await withLogtalkUser(missing, () =>
      createPrologProvider({
        files: [fixture('broken.lgt')],
        workers: 1,
        onLog: logSink().onLog,
      }).catch((e: unknown) => e),
    );
    expect(failure).toBeInstanceOf(PrologLoadError);
    expect((failure as PrologLoadError).line).toBe(4);
    expect(existsSync(missing)).toBe(false);
  });
});

describe('findLogtalkHome', () => {
  const file = '/srv/birds.lgt';

  it('takes the option first, then LOGTALKHOME, then the first well-known place holding one', () => {
    expect(findLogtalkHome(file, home, { LOGTALKHOME: '/nowhere' })).toBe(home);
    expect(findLogtalkHome(file, undefined, { LOGTALKHOME: home })).toBe(home);
    expect(findLogtalkHome(file, undefined, {}, ['/nowhere/logtalk', home])).toBe(home);
  });

  it('says how to fix an MCP client config when no Logtalk is found', () => {
    const failure = (() => {
      try {
        return findLogtalkHome(file, undefined, {}, ['/nowhere/logtalk']);
      } catch (e) {
        return e;
      }
    })();
    expect(failure).toBeInstanceOf(PrologConfigurationError);
    const message = (failure as Error).message;
    expect(message).toContain('/srv/birds.lgt is a Logtalk file, but no Logtalk was found');
    expect(message).toContain('/nowhere/logtalk');
    expect(message).toContain('"env": {"LOGTALKHOME"');
    expect(message).toContain('--logtalk-home');
  });

  it('names the variable when LOGTALKHOME is not a distribution', () => {
    expect(() => findLogtalkHome(file, undefined, { LOGTALKHOME: '/nowhere' })).toThrow(
      /LOGTALKHOME \(\/nowhere\) is not a Logtalk 3 distribution/,
    );
  });
});
