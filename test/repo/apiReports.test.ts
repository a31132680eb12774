import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { reportTextOf } from '../../tooling/scripts/apiReport.mjs';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const script = `${root}tooling/scripts/apiReport.mjs`;

describe('API reports', () => {
  it(
    "every package's public surface matches its committed API report",
    async () => {
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
    },
    scaled(120_000),
  );

  it('prints the members of an inferred enum in one order, whatever order tsc emitted', () => {
    // An incremental build emitted `working` first, a clean one `input_required`.
    const emitted = (first: string, second: string) =>
      `export declare const Status: z.ZodObject<{
        status: z.ZodEnum<{ ${first}: "${first}"; ${second}: "${second}"; "io.x/done": "done" }>;
        level: ZodEnum<{ warning: "warning"; error: "error" }>;
        shape: { zeta: string; alpha: number };
      }>;`;
    const incremental = reportTextOf(emitted('working', 'input_required'));
    const clean = reportTextOf(emitted('input_required', 'working'));
    expect(incremental).toBe(clean);
    expect(clean.replace(/\s+/g, ' ')).toContain(
      'z.ZodEnum<{ input_required: "input_required"; "io.x/done": "done"; working: "working"; }>',
    );
    expect(clean.replace(/\s+/g, ' ')).toContain(
      'ZodEnum<{ error: "error"; warning: "warning"; }>',
    );
    // Other type literals keep their order: an object's keys are its shape as written.
    expect(clean.replace(/\s+/g, ' ')).toContain('shape: { zeta: string; alpha: number; }');
  });
});
