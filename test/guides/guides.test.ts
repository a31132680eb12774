import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answersById, examplesOf, guideBlocks, type GuideExample } from './guideBlocks.js';

const run = promisify(execFile);
const repoRoot = join(import.meta.dirname, '..', '..');
const guides = join(repoRoot, 'docs', 'guides');
const hasSwipl = (process.env.PATH ?? '').split(':').some((dir) => existsSync(join(dir, 'swipl')));

/** Runs a program with the example's client lines on stdin (then end of input); returns stdout. */
async function tryWith(
  command: string,
  args: string[],
  example: GuideExample,
  cwd: string,
): Promise<string> {
  const child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.end(`${example.tryLines.join('\n')}\n`);
  const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(deadline);
  expect(code, `exit code; stderr:\n${stderr}`).toBe(0);
  return stdout;
}

/** Every request of the example was answered, with a result, not a JSON-RPC error. */
function expectAnswered(example: GuideExample, output: string): void {
  const { requested, answers } = answersById(example.tryLines, output);
  expect(requested.length).toBeGreaterThan(0);
  for (const id of requested) {
    const answer = answers.get(id);
    expect(answer, `request ${id} of the block at line ${example.program.line}`).toBeDefined();
    expect(answer?.error, `request ${id}: ${JSON.stringify(answer)}`).toBeUndefined();
  }
}

describe('docs/guides/typescript.md', { timeout: 120_000 }, () => {
  const blocks = guideBlocks(join(guides, 'typescript.md'));
  const examples = examplesOf(blocks, 'ts');
  let project = '';

  // The guide's own package.json and tsconfig.json make the project its examples compile in; the
  // workspace's node_modules stand in for the installed packages.
  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'rondo-guide-'));
    for (const block of blocks.filter((entry) => entry.language === 'json'))
      writeFileSync(join(project, block.label), block.code);
    symlinkSync(join(repoRoot, 'node_modules'), join(project, 'node_modules'), 'dir');
    mkdirSync(join(project, 'src'));
    examples.forEach((example, index) =>
      writeFileSync(join(project, 'src', `example${index}.ts`), example.program.code),
    );
    const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    await run(process.execPath, [tsc, '-p', project], { cwd: project, timeout: 110_000 }).catch(
      (failure: { stdout?: string; message: string }) => {
        throw new Error(
          `the guide's examples do not compile:\n${failure.stdout ?? failure.message}`,
        );
      },
    );
  }, 120_000);
  afterAll(() => {
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('shows package.json and tsconfig.json, and examples of every provider kind', () => {
    expect(blocks.filter((block) => block.language === 'json').map((block) => block.label)).toEqual(
      ['package.json', 'tsconfig.json'],
    );
    const code = examples.map((example) => example.program.code).join('\n');
    for (const piece of [
      '.tool(',
      '.prompt(',
      '.resource(',
      '.resourceTemplate(',
      '.completion(',
      'inputRequired(',
      'ctx.progress(',
      'ctx.signal',
      'structured(',
      'error(',
    ])
      expect(code, piece).toContain(piece);
  });

  it('has only blocks the test runs (json, ts with its jsonl try lines)', () => {
    expect(
      blocks
        .map((block) => block.language)
        .filter((language) => !['json', 'ts', 'jsonl'].includes(language)),
    ).toEqual([]);
  });

  it.each(examples.map((example, index) => ({ example, index, line: example.program.line })))(
    'runs the example at line $line with its try lines',
    async ({ example, index }) => {
      const output = await tryWith(
        process.execPath,
        [join(project, 'dist', `example${index}.js`)],
        example,
        project,
      );
      expectAnswered(example, output);
    },
  );
});

describe('docs/guides/prolog.md', { timeout: 60_000 }, () => {
  const blocks = guideBlocks(join(guides, 'prolog.md'));
  const examples = examplesOf(blocks, 'prolog');
  const host = join(repoRoot, 'apps', 'logtalk-host', 'dist', 'main.js');

  it('has only blocks the test runs (prolog with its jsonl try lines)', () => {
    expect(
      blocks
        .map((block) => block.language)
        .filter((language) => !['prolog', 'jsonl'].includes(language)),
    ).toEqual([]);
    expect(examples.length).toBeGreaterThan(0);
  });

  it.for(examples.map((example) => ({ example, line: example.program.line })))(
    'serves the example at line $line with rondo-logtalk and answers its try lines',
    async ({ example }, context) => {
      if (!hasSwipl) {
        console.warn(
          'Prolog guide examples skipped: swipl is not installed (apt-get install -y swi-prolog-nox)',
        );
        context.skip();
      }
      const folder = mkdtempSync(join(tmpdir(), 'rondo-guide-pl-'));
      try {
        writeFileSync(join(folder, 'server.pl'), example.program.code);
        const output = await tryWith(process.execPath, [host, 'server.pl'], example, folder);
        expectAnswered(example, output);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  );
});
