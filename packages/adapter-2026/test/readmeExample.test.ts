import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
// Inside the package, so the example's imports resolve exactly as they would for a user.
const scratch = mkdtempSync(join(packageDir, 'test', '.readme-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function readmeExample(): string {
  const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(readme);
  if (!block?.[1]) throw new Error('README.md has no ts example');
  return block[1];
}

describe('README', () => {
  it('runs its example and prints what its comments say', async () => {
    const file = join(scratch, 'example.ts');
    writeFileSync(file, readmeExample());
    const printed: unknown[] = [];
    const spy = vi
      .spyOn(console, 'log')
      .mockImplementation((value: unknown) => void printed.push(value));
    try {
      await import(pathToFileURL(file).href);
    } finally {
      spy.mockRestore();
    }
    expect(printed).toEqual(['input_required', 'elicitation/create', 'Hello, Alice!']);
  });
});
