import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, ErrorCode, text } from '@rondo/server';
import { SKILLS_EXTENSION, skills, type SkillsOptions } from '@rondo/skills';
import { skillDirectory } from '@rondo/skills/node';
import { served, tempTree } from './support.js';

// The Skills extension (SEP-2640) over real HTTP, in both eras.

const SKILL_MD =
  '---\nname: pdf-forms\ndescription: Fill in PDF forms.\nlicense: MIT\n---\n\n# PDF\n';
const FIELDS = '# Fields\n- name\n';
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

async function start(options: SkillsOptions, era: 'legacy' | 'modern', pageSize?: number) {
  const server = createServer({ name: 's', version: '1', log: () => undefined, pageSize });
  server.tool('noop', {}, () => text('ok')).use(skills(options));
  const running = await served(server, era);
  cleanups.push(running.close);
  return running.client;
}

function directoryOfSkills() {
  const tree = tempTree({
    'pdf-forms/SKILL.md': SKILL_MD,
    'pdf-forms/references/fields.md': FIELDS,
    'pdf-forms/.hidden': 'not served',
    'notes.txt': 'a file beside the skills is no skill',
  });
  cleanups.push(tree.remove);
  return tree.root;
}

const codeSkill = {
  name: 'release-notes',
  description: 'Write release notes.',
  instructions: '# Release notes',
  files: { 'templates/entry.md': '- entry\n', 'logo.png': new Uint8Array([137, 80, 78, 71]) },
};

for (const era of ['legacy', 'modern'] as const) {
  describe(`skills in the ${era} era`, () => {
    it('lists each skill with its frontmatter and a complete SHA-256 manifest', async () => {
      const client = await start({ sources: [skillDirectory(directoryOfSkills())] }, era);
      expect(client.capabilities.extensions).toEqual({ [SKILLS_EXTENSION]: {} });
      const listed = await client.request('skills/list', {});
      expect(listed.skills).toEqual([
        {
          uri: 'skill://pdf-forms/SKILL.md',
          frontmatter: { name: 'pdf-forms', description: 'Fill in PDF forms.', license: 'MIT' },
          resources: [
            { uri: 'skill://pdf-forms/SKILL.md', digest: sha(SKILL_MD), size: SKILL_MD.length },
            {
              uri: 'skill://pdf-forms/references/fields.md',
              digest: sha(FIELDS),
              size: FIELDS.length,
            },
          ],
        },
      ]);
      // ttlMs and cacheScope belong to the 2026-07-28 wire only.
      expect('ttlMs' in listed).toBe(era === 'modern');
    });

    it('pages skills/list without splitting an entry, and gets one skill by URI', async () => {
      const client = await start(
        { skills: [codeSkill], sources: [skillDirectory(directoryOfSkills())] },
        era,
        1,
      );
      const first = await client.request('skills/list', {});
      expect(first.skills).toHaveLength(1);
      expect(typeof first.nextCursor).toBe('string');
      const second = await client.request('skills/list', { cursor: first.nextCursor });
      expect((second.skills as { uri: string }[]).map((s) => s.uri)).toEqual([
        'skill://release-notes/SKILL.md',
      ]);
      expect(second.nextCursor).toBeUndefined();
      const got = await client.request('skills/get', { uri: 'skill://release-notes/SKILL.md' });
      expect(got.skill).toEqual((second.skills as unknown[])[0]);
      expect(got.nextCursor).toBeUndefined();
    });

    it('answers an unknown skill with -32602', async () => {
      const client = await start({ skills: [codeSkill] }, era);
      await expect(
        client.request('skills/get', { uri: 'skill://nope/SKILL.md' }),
      ).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    });

    it('serves every file as a skill:// resource: SKILL.md listed, text and bytes read', async () => {
      const client = await start({ skills: [codeSkill] }, era);
      const { resources } = await client.listResources();
      expect(resources).toEqual([
        expect.objectContaining({
          uri: 'skill://release-notes/SKILL.md',
          name: 'release-notes',
          description: 'Write release notes.',
          mimeType: 'text/markdown',
        }),
      ]);
      const entry = await client.readResource('skill://release-notes/templates/entry.md');
      expect(entry.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: '- entry\n' });
      const logo = await client.readResource('skill://release-notes/logo.png');
      expect(logo.contents[0]).toMatchObject({ mimeType: 'image/png', blob: 'iVBORw==' });
    });

    it('lists a skill directory behind directoryRead, subdirectories as inode/directory', async () => {
      const client = await start({ skills: [codeSkill], directoryRead: true }, era);
      expect(client.capabilities.extensions).toEqual({
        [SKILLS_EXTENSION]: { directoryRead: true },
      });
      const root = await client.request('resources/directory/read', {
        uri: 'skill://release-notes',
      });
      expect(root.resources).toEqual([
        { uri: 'skill://release-notes/templates', name: 'templates', mimeType: 'inode/directory' },
        expect.objectContaining({ uri: 'skill://release-notes/SKILL.md', name: 'SKILL.md' }),
        expect.objectContaining({ uri: 'skill://release-notes/logo.png', size: 4 }),
      ]);
      await expect(
        client.request('resources/directory/read', { uri: 'skill://release-notes/SKILL.md' }),
      ).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: /is a file/ });
    });

    it('has no resources/directory/read without directoryRead (-32601)', async () => {
      const client = await start({ skills: [codeSkill] }, era);
      await expect(
        client.request('resources/directory/read', { uri: 'skill://release-notes' }),
      ).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
    });
  });
}

describe('a skill that serves its files dynamically', () => {
  it('is listed with resources "dynamic" and reads through its readFile', async () => {
    const client = await start(
      {
        skills: [
          {
            name: 'live-docs',
            description: 'Docs read when asked.',
            instructions: 'Read `pages/<name>.md`.',
            readFile: async (path) => (path === 'pages/intro.md' ? '# Intro\n' : undefined),
          },
        ],
      },
      'modern',
    );
    const listed = await client.request('skills/list', {});
    expect(listed.skills).toEqual([expect.objectContaining({ resources: 'dynamic' })]);
    const page = await client.readResource('skill://live-docs/pages/intro.md');
    expect(page.contents[0]).toMatchObject({ text: '# Intro\n' });
    await expect(client.readResource('skill://live-docs/pages/other.md')).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
  });
});
