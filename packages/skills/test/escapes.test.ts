import { afterEach, describe, expect, it } from 'vitest';
import { createServer, ErrorCode, text } from '@rondo/server';
import { SkillDefinitionError, parseSkillUri, skills } from '@rondo/skills';
import { loadSkillDirectory, skillDirectory } from '@rondo/skills/node';
import { served, tempTree } from './support.js';

// A path that would leave a skill's root is refused, with a message saying how: in a URI a client
// sends (.., an empty segment, NUL, a backslash, their percent-encodings), in a skill defined in
// code, and on disk (a symbolic link out of the root).

const SKILL_MD = (name: string) => `---\nname: ${name}\ndescription: A skill.\n---\nBody\n`;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a skill:// URI from a client', () => {
  it.each([
    ['skill://pdf/../other/SKILL.md', /"\.\." segment/],
    ['skill://pdf/%2e%2e/other/SKILL.md', /"\.\." segment/],
    ['skill://pdf/./SKILL.md', /"\." segment/],
    ['skill://pdf//etc/passwd', /empty segment \(an absolute path\)/],
    ['skill://pdf/a%00b', /NUL/],
    ['skill://pdf/a%5c..%5cb', /path separator/],
    ['skill://pdf/a%2f..%2fb', /path separator/],
    ['skill://pdf/%zz', /not valid percent-encoding/],
    ['skill:///SKILL.md', /names no skill/],
  ])('refuses %s', (uri, reason) => {
    let thrown: unknown;
    try {
      parseSkillUri(uri);
    } catch (failure) {
      thrown = failure;
    }
    expect(thrown).toMatchObject({ code: ErrorCode.InvalidParams, message: reason, data: { uri } });
  });

  it('reads a path inside the root, and is no skill URI under another scheme', () => {
    expect(parseSkillUri('skill://pdf/references/a%20b.md')).toEqual({
      skill: 'pdf',
      path: 'references/a b.md',
    });
    expect(parseSkillUri('skill://pdf')).toEqual({ skill: 'pdf', path: '' });
    expect(parseSkillUri('file:///etc/passwd')).toBeUndefined();
  });

  it('gets -32602 naming the escape over the wire, and the server goes on serving', async () => {
    const tree = tempTree({ 'pdf/SKILL.md': SKILL_MD('pdf'), 'secret.txt': 'outside' });
    cleanups.push(tree.remove);
    const server = createServer({ name: 's', version: '1', log: () => undefined });
    server.tool('noop', {}, () => text('ok'));
    server.use(skills({ sources: [skillDirectory(tree.root)], directoryRead: true }));
    const { client, close } = await served(server, 'modern');
    cleanups.push(close);
    await expect(client.readResource('skill://pdf/../secret.txt')).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining('would leave the skill') as unknown,
    });
    await expect(
      client.request('resources/directory/read', { uri: 'skill://pdf/..' }),
    ).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    const read = await client.readResource('skill://pdf/SKILL.md');
    expect(read.contents[0]).toMatchObject({ text: SKILL_MD('pdf') });
  });
});

describe('a skill defined in code', () => {
  it.each([
    ['../x.md', /escapes the skill's root/],
    ['/etc/passwd', /is absolute/],
    ['a\u0000b', /contains a NUL/],
    ['a/./b', /escapes the skill's root/],
  ])('with a file at %j is refused where it is declared, naming the skill', (path, reason) => {
    const declare = () =>
      skills({
        skills: [{ name: 'bad', description: 'd', instructions: 'i', files: { [path]: 'x' } }],
      });
    expect(declare).toThrow(reason);
    expect(declare).toThrow(/skill "bad"/);
  });
});

describe('a directory of skills', () => {
  it('refuses a symbolic link out of a skill’s root, naming the link and its target', async () => {
    const outside = tempTree({ 'secret.txt': 'outside' });
    const tree = tempTree({
      'pdf/SKILL.md': SKILL_MD('pdf'),
      'pdf/leak.txt': `->${outside.root}/secret.txt`,
    });
    cleanups.push(tree.remove, outside.remove);
    const failure = loadSkillDirectory(tree.root);
    await expect(failure).rejects.toBeInstanceOf(SkillDefinitionError);
    await expect(failure).rejects.toThrow(/leak\.txt: a symbolic link out of the skill's root/);
  });

  it('serves a symbolic link that stays inside the root', async () => {
    const tree = tempTree({
      'pdf/SKILL.md': SKILL_MD('pdf'),
      'pdf/docs/a.md': 'A',
      'pdf/alias.md': '->docs/a.md',
    });
    cleanups.push(tree.remove);
    const [skill] = await loadSkillDirectory(tree.root);
    expect([...skill!.files.keys()].sort()).toEqual(['SKILL.md', 'alias.md', 'docs/a.md']);
  });

  it.each([
    [
      'a name that is not its directory’s',
      { 'pdf/SKILL.md': SKILL_MD('other') },
      /:1: the frontmatter name "other" is not the skill's directory name "pdf"/,
    ],
    [
      'no frontmatter',
      { 'pdf/SKILL.md': '# no frontmatter' },
      /SKILL\.md:1: SKILL\.md does not begin with/,
    ],
    ['a bad name', { 'Bad/SKILL.md': SKILL_MD('Bad') }, /is not a skill name/],
    ['no description', { 'pdf/SKILL.md': '---\nname: pdf\n---\n' }, /has no description/],
  ])('refuses a SKILL.md with %s, naming the file and line', async (_what, files, reason) => {
    const tree = tempTree(files);
    cleanups.push(tree.remove);
    await expect(loadSkillDirectory(tree.root)).rejects.toThrow(reason);
  });
});
