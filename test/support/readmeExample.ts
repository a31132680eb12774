import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { scaled } from './timeFactor.js';

const run = promisify(execFile);

/** The first ```ts code block of a README (after the heading `## section`, when given). */
export function firstTypeScriptBlock(readmePath: string, section?: string): string {
  let text = readFileSync(readmePath, 'utf8');
  if (section !== undefined) {
    const at = text.indexOf(`\n## ${section}\n`);
    if (at < 0) throw new Error(`${readmePath} has no section "${section}"`);
    text = text.slice(at);
  }
  const match = /```ts\n([\s\S]*?)```/.exec(text);
  if (!match?.[1]) throw new Error(`${readmePath} has no \`\`\`ts example`);
  return match[1];
}

/** A README's TypeScript example as the ES module Node runs (types stripped, nothing checked). */
export function transpileExample(source: string): string {
  return ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
}

/**
 * Runs a README's first TypeScript example (of `section`, when given) as a real program inside the package folder (so its
 * imports resolve like a user's would) and returns what it printed. `timeoutMs` is for an idle machine:
 * it is scaled by the machine's load like the tests' own deadlines.
 */
export async function runReadmeExample(
  packageDir: string,
  timeoutMs = 20_000,
  section?: string,
): Promise<string> {
  const output = transpileExample(firstTypeScriptBlock(join(packageDir, 'README.md'), section));
  const file = join(packageDir, `.readme-example-${process.pid}.mjs`);
  writeFileSync(file, output);
  try {
    const { stdout } = await run(process.execPath, [file], {
      cwd: packageDir,
      timeout: scaled(timeoutMs),
    });
    return stdout;
  } finally {
    rmSync(file, { force: true });
  }
}

/** The complete server programs of a README: its TypeScript blocks that read their port from PORT. */
export function listeningExamples(readmePath: string): string[] {
  return [...readFileSync(readmePath, 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((match) => match[1]!)
    .filter((code) => code.includes('process.env.PORT'));
}

/**
 * Runs one README server program from `cwd` with PORT=0 and waits for the URL it prints, which
 * `announcement` captures in its first group. The caller kills the child; if it exits before
 * announcing, the promise rejects with what it printed.
 */
export async function startListeningExample(
  code: string,
  cwd: string,
  announcement: RegExp,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', transpileExample(code)], {
    cwd,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const collect = (chunk: Buffer): void => {
      output += String(chunk);
      const found = announcement.exec(output);
      if (found) resolve(found[1]!);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('exit', (exitCode) =>
      reject(new Error(`the example exited with ${exitCode}:\n${output}`)),
    );
  });
  return { url, child };
}
