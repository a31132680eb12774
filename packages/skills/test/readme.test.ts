import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runReadmeExample } from '@rondo/test-support/readmeExample';

describe('README', () => {
  it('runs its example: the skill, its manifest with digests, and a file read back', async () => {
    const output = await runReadmeExample(fileURLToPath(new URL('..', import.meta.url)));
    const entry = '- **Kind**: what changed, and why.\n';
    const digest = createHash('sha256').update(entry).digest('hex');
    const lines = output.trim().split('\n');
    expect(lines[0]).toBe('skill://release-notes/SKILL.md');
    expect(lines[1]).toMatch(/^ skill:\/\/release-notes\/SKILL\.md sha256:[0-9a-f]{8}$/);
    expect(lines[2]).toBe(` skill://release-notes/templates/entry.md sha256:${digest.slice(0, 8)}`);
    expect(JSON.parse(lines[3]!)).toEqual({
      uri: 'skill://release-notes/templates/entry.md',
      mimeType: 'text/markdown',
      text: entry,
    });
  });
});
