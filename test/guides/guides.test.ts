import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANSWERED_NAME,
  converse,
  resultText,
  type Conversation,
  type Message,
} from './conversation.js';
import { examplesOf, guideBlocks, scriptsOf, type GuideExample } from './guideBlocks.js';
import { scaled } from '@rondo/test-support/timeFactor';

const run = promisify(execFile);
const repoRoot = join(import.meta.dirname, '..', '..');
const guides = join(repoRoot, 'docs', 'guides');
const hasSwipl = (process.env.PATH ?? '').split(':').some((dir) => existsSync(join(dir, 'swipl')));

/** Talks to the example's program as a client would, through every round; checks every answer. */
async function tryExample(
  command: string,
  args: string[],
  example: GuideExample,
  cwd: string,
): Promise<Conversation> {
  const talk = await converse(command, args, cwd, example.tryLines, example.retryLines);
  const where = `the block at line ${example.program.line}`;
  expect(talk.code, `exit code of ${where}; stderr:\n${talk.stderr}`).toBe(0);
  expect(talk.sent.length).toBeGreaterThan(0);
  for (const request of talk.sent) {
    const answer = talk.answers.get(request.id!);
    expect(answer, `request ${request.id} of ${where}`).toBeDefined();
    expect(answer?.error, `request ${request.id}: ${JSON.stringify(answer)}`).toBeUndefined();
  }
  expect(talk.unusedRetries, `retry lines of ${where} no round asked for`).toEqual([]);
  return talk;
}

/** A round's last answer: a result that is not a tool error, greeting the name the client gave. */
function expectGreeted(answer: Message | undefined): void {
  expect(answer?.result?.isError, JSON.stringify(answer)).not.toBe(true);
  expect(resultText(answer)).toContain(ANSWERED_NAME);
}

/**
 * A round hook's example is tried in both eras, through every round: a modern call answered
 * `input_required` and retried to its end, and a legacy call whose `elicitation/create` was
 * answered; both end with the answer given (issue 29: round 2 was never run).
 */
function expectEveryRound(example: GuideExample, talk: Conversation): void {
  const roundTrips = talk.sent.filter(
    (request) => talk.answers.get(request.id!)?.result?.resultType === 'input_required',
  );
  expect(roundTrips.length, 'a modern call asked for input').toBeGreaterThan(0);
  for (const request of roundTrips) {
    const retried = talk.sent.find(
      (later) => later.params?.requestState === talk.answers.get(request.id!)?.result?.requestState,
    );
    expect(retried, `the retry of request ${request.id}`).toBeDefined();
    expectGreeted(talk.answers.get(retried!.id!));
  }
  expect(talk.asked.length, 'a legacy call asked with elicitation/create').toBeGreaterThan(0);
  const legacyCalls = talk.sent.filter(
    (request) => request.method === 'tools/call' && request.params?._meta === undefined,
  );
  expect(
    legacyCalls.length,
    `legacy tools/call lines of line ${example.program.line}`,
  ).toBeGreaterThan(0);
  for (const request of legacyCalls) expectGreeted(talk.answers.get(request.id!));
}

describe('docs/guides/typescript.md', { timeout: scaled(120_000) }, () => {
  const blocks = guideBlocks(join(guides, 'typescript.md'));
  const examples = examplesOf(blocks, 'ts');
  const scripts = scriptsOf(blocks, 'ts');
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
    scripts.forEach((script, index) =>
      writeFileSync(join(project, 'src', `script${index}.ts`), script.program.code),
    );
    const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    await run(process.execPath, [tsc, '-p', project], {
      cwd: project,
      timeout: scaled(110_000),
    }).catch((failure: { stdout?: string; message: string }) => {
      throw new Error(`the guide's examples do not compile:\n${failure.stdout ?? failure.message}`);
    });
  }, scaled(120_000));
  afterAll(() => {
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('shows package.json and tsconfig.json, and examples of every provider kind', () => {
    expect(blocks.filter((block) => block.language === 'json').map((block) => block.label)).toEqual(
      ['package.json', 'tsconfig.json', 'claude_desktop_config.json'],
    );
    // The desktop configuration starts the built server with absolute paths (issue 29).
    const desktop = JSON.parse(
      blocks.find((block) => block.label === 'claude_desktop_config.json')!.code,
    ) as { mcpServers: Record<string, { command: string; args: string[] }> };
    for (const entry of Object.values(desktop.mcpServers)) {
      expect(entry.command).toMatch(/^\/.*\/node$/);
      expect(entry.args[0]).toMatch(/^\/.*\/dist\/server\.js$/);
    }
    const prose = readFileSync(join(guides, 'typescript.md'), 'utf8');
    for (const mention of ['@modelcontextprotocol/inspector', 'verbatim', 'console.log'])
      expect(prose, mention).toContain(mention);
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

  it('has only blocks the test runs (json, ts with its jsonl try lines or its text output)', () => {
    expect(
      blocks
        .map((block) => block.language)
        .filter((language) => !['json', 'ts', 'jsonl', 'text'].includes(language)),
    ).toEqual([]);
    const outputs = blocks.filter((block) => block.language === 'text');
    expect(outputs.length).toBe(scripts.length);
  });

  it.each(scripts.map((script, index) => ({ script, index, line: script.program.line })))(
    'runs the script at line $line and prints its output',
    async ({ script, index }) => {
      const { stdout } = await run(process.execPath, [join(project, 'dist', `script${index}.js`)], {
        cwd: project,
        timeout: scaled(60_000),
      });
      expect(stdout).toBe(script.output);
    },
  );

  it.each(examples.map((example, index) => ({ example, index, line: example.program.line })))(
    'runs the example at line $line with its try lines',
    async ({ example, index }) => {
      const talk = await tryExample(
        process.execPath,
        [join(project, 'dist', `example${index}.js`)],
        example,
        project,
      );
      if (example.program.code.includes('inputRequired(')) expectEveryRound(example, talk);
    },
  );
});

describe('docs/guides/prolog.md', { timeout: scaled(60_000) }, () => {
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
        const talk = await tryExample(process.execPath, [host, 'server.pl'], example, folder);
        if (example.program.code.includes('input_required(')) expectEveryRound(example, talk);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  );
});
