import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';

const run = promisify(execFile);

/** The first ```ts code block of a README. */
export function firstTypeScriptBlock(readmePath: string): string {
  const match = /```ts\n([\s\S]*?)```/.exec(readFileSync(readmePath, 'utf8'));
  if (!match?.[1]) throw new Error(`${readmePath} has no \`\`\`ts example`);
  return match[1];
}

/**
 * Runs a README's first TypeScript example as a real program inside the package folder (so its
 * imports resolve like a user's would) and returns what it printed.
 */
export async function runReadmeExample(packageDir: string, timeoutMs = 20_000): Promise<string> {
  const source = firstTypeScriptBlock(join(packageDir, 'README.md'));
  const output = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const file = join(packageDir, `.readme-example-${process.pid}.mjs`);
  writeFileSync(file, output);
  try {
    const { stdout } = await run(process.execPath, [file], { cwd: packageDir, timeout: timeoutMs });
    return stdout;
  } finally {
    rmSync(file, { force: true });
  }
}
