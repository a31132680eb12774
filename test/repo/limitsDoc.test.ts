import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Issue 18, done-when 5: every limit docs/limits.md names has a test that hits it. Each option of
// the limit tables must be set (or checked) by some test; a limit documented without one fails here.

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The option names of the tables' third column (`maxX`, `legacyEra({ maxY })`, `a: { b, c }`). */
function documentedOptions(): string[] {
  const text = readFileSync(join(root, 'docs/limits.md'), 'utf8');
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const option = cells[3];
    if (!line.startsWith('|') || option === undefined || option.startsWith('-')) continue;
    if (option === 'option') continue;
    for (const code of option.matchAll(/`([^`]+)`/g)) {
      // `createServer({ limits: { maxArgumentDepth } })`: a name before a colon holds options.
      const inner = /\(\{(.*)\}\)/.exec(code[1]!)?.[1] ?? code[1]!;
      for (const name of inner.split(/[,{}\s]+/))
        if (/^[a-z][A-Za-z]+$/.test(name)) names.add(name);
    }
  }
  return [...names];
}

function testSources(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) testSources(path, found);
    else if (entry.endsWith('.ts') && path.includes('/test/'))
      found.push(readFileSync(path, 'utf8'));
  }
  return found;
}

describe('docs/limits.md', () => {
  it('names no limit option that no test sets', () => {
    const options = documentedOptions();
    console.info(`limits.md options: ${options.join(', ')}`);
    expect(options.length).toBeGreaterThan(20);
    const sources = [
      ...testSources(join(root, 'packages')),
      ...testSources(join(root, 'test')),
      ...testSources(join(root, 'apps')),
    ].join('\n');
    const untested = options.filter((name) => !new RegExp(`\\b${name}\\b`).test(sources));
    expect(untested).toEqual([]);
  });
});
