import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const script = `${root}tooling/scripts/apiReport.mjs`;

describe('API reports', () => {
  it("every package's public surface matches its committed API report", async () => {
    // --check regenerates every report in memory from the built .d.ts files and prints, per stale
    // package, a diff and the command that updates it.
    let output = '';
    let code = 0;
    try {
      ({ stdout: output } = await run(process.execPath, [script, '--check'], {
        cwd: root,
        maxBuffer: 64 * 1024 * 1024,
      }));
    } catch (failure) {
      const {
        code: exitCode,
        stdout,
        stderr,
      } = failure as {
        code?: number;
        stdout?: string;
        stderr?: string;
      };
      code = exitCode ?? 1;
      output = `${stdout ?? ''}${stderr ?? ''}`;
    }
    expect(code, `\n${output}`).toBe(0);
  }, 120_000);
});
