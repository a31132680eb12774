import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs a pnpm script and gives back its exit code and output, never throwing. */
async function pnpm(script: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run('pnpm', [script], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, output: stdout + stderr };
  } catch (failure) {
    const { code, stdout, stderr } = failure as { code?: number; stdout?: string; stderr?: string };
    return { code: code ?? 1, output: `${stdout ?? ''}${stderr ?? ''}` };
  }
}

// Whole-repository runs (tsc twice, prettier, a typed lint): minutes on a busy machine.
describe('the repository keeps its house style', { timeout: scaled(300_000) }, () => {
  it('passes pnpm typecheck (sources and tests)', async () => {
    const { code, output } = await pnpm('typecheck');
    expect(code, output).toBe(0);
  });

  it('passes pnpm format:check (one prettier style everywhere)', async () => {
    const { code, output } = await pnpm('format:check');
    expect(code, output).toBe(0);
  });

  it('passes pnpm lint with no warnings', async () => {
    const { code, output } = await pnpm('lint');
    expect(code, output).toBe(0);
  });
});
