import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProviderChange } from '@rondo/core';
import { createPrologProvider, PrologLoadError } from '../src/index.js';
import { fixture, logSink, makeContext } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rondo-reload-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('PrologProvider.reload', () => {
  it('serves the new code from new workers, keeps the old ones on a load error, announces lists', async () => {
    const file = join(dir, 'locale.pl');
    writeFileSync(file, readFileSync(fixture('locale.pl'), 'utf8'));
    const provider = await createPrologProvider({
      files: [file],
      workers: 1,
      onLog: logSink().onLog,
    });
    const changes: ProviderChange[] = [];
    provider.onChange!((change) => changes.push(change));
    try {
      const before = provider.workerIds();
      writeFileSync(file, readFileSync(file, 'utf8').replace("'grüß'", "'neu'"));
      await provider.reload();
      expect(provider.workerIds()).not.toEqual(before);
      expect(changes).toEqual([{ kind: 'tools' }, { kind: 'prompts' }, { kind: 'resources' }]);
      expect(await provider.callTool!('greeting', {}, makeContext())).toMatchObject({
        structured: { Loud: 'NEU' },
      });
      writeFileSync(file, ':- module(locale, []).\nbroken(:- .\n');
      await expect(provider.reload()).rejects.toBeInstanceOf(PrologLoadError);
      expect(await provider.callTool!('greeting', {}, makeContext())).toMatchObject({
        structured: { Loud: 'NEU' },
      });
    } finally {
      await provider.close();
    }
  });
});
