import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client, httpTransport } from '@rondo/client';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { EVERYTHING_MAIN, GATEWAY_MAIN, startGateway, writeConfig } from './support.js';

// Issue 38, done-when 5 through the CLI: two entries without a namespace that offer the same
// names (two official everything servers) are a collision `check` refuses, naming both entries;
// served, the second entry's items are left out with a warning naming both, never shadowed.

const run = promisify(execFile);

const twoEverything = () =>
  writeConfig({
    first: { command: process.execPath, args: [EVERYTHING_MAIN, 'stdio'], namespace: '' },
    second: { command: process.execPath, args: [EVERYTHING_MAIN, 'stdio'], namespace: '' },
  });

describe('entries offering the same names', { timeout: scaled(90_000) }, () => {
  it('`check` fails naming both entries for each name and URI they share', async () => {
    const failure = await run(process.execPath, [GATEWAY_MAIN, 'check', twoEverything()]).catch(
      (error: { code: number; stdout: string }) => error,
    );
    expect(failure).toMatchObject({ code: 1 });
    const lines = failure.stdout.trim().split('\n');
    // Each entry's line as soon as it is known (either order), the collisions after them.
    expect(lines.slice(0, 2).sort()).toEqual([
      expect.stringMatching(/^first: ok: /),
      expect.stringMatching(/^second: ok: /),
    ]);
    expect(lines).toContain(
      'collision: tool "echo" of entry "second" left out: entry "first" offers it too ' +
        '(give one of them a namespace, or rename or exclude it)',
    );
    expect(lines.some((line) => /^collision: resource ".+" of entry "second"/.test(line))).toBe(
      true,
    );
  });

  it("serves the first entry's item and says on stderr which entry's was left out", async () => {
    const gateway = await startGateway(twoEverything());
    const client = new Client({
      transport: httpTransport({ url: gateway.url.href }),
      era: '2026-07-28',
    });
    try {
      await client.connect();
      await expect
        .poll(() => gateway.stderr(), { timeout: 30_000 })
        .toMatch(/tool "echo" of entry "second" left out: entry "first" offers it too/);
      const names = (await client.listAllTools()).map((tool) => tool.name);
      expect(names.filter((name) => name === 'echo')).toEqual(['echo']);
      expect(new Set(names).size).toBe(names.length);
    } finally {
      await client.close();
      await gateway.close();
    }
  });
});
