import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { Client, inMemoryTransport } from '@rondo/client';
import { createLogtalkHost, type LogtalkHost } from '@rondo/logtalk-host';
import { PrologProviderError } from '@rondo/logtalk-bridge';
import { logtalkHomeForTests } from './support/paths.js';

// Issue 27, point 3: a Prolog provider declares skills with skills/1 (skill(Name, Properties)
// and skill_directory(Dir)), an SWI module and a Logtalk object alike; a malformed declaration is
// a one-line file:line message at start.

logtalkHomeForTests();
const dir = mkdtempSync(join(tmpdir(), 'rondo-prolog-skills-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'docs/style-guide/examples'), { recursive: true });
writeFileSync(
  join(dir, 'docs/style-guide/SKILL.md'),
  '---\nname: style-guide\ndescription: House style.\n---\n\nSee examples/.\n',
);
writeFileSync(join(dir, 'docs/style-guide/examples/one.pl'), 'ok.\n');

const SKILLS = `[
    skill('release-notes', [
        description("Write release notes."),
        instructions("# Release notes"),
        file('templates/entry.md', "- entry"),
        frontmatter({license-'MIT'})
    ]),
    skill_directory(docs)
]`;

const MODULE = `:- module(skilled, []).\n\nskills(${SKILLS}).\n`;
const OBJECT = `:- object(skilled_object, implements(mcp_skill_protocol)).\n\n\tskills(${SKILLS}).\n\n:- end_object.\n`;

const hosts: LogtalkHost[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const host of hosts.splice(0)) await host.endpoint.close();
});

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function skillsOf(file: string, era: '2026-07-28' | '2025-11-25') {
  const host = await createLogtalkHost({ files: [file], workers: 1, serverLog: () => undefined });
  hosts.push(host);
  const client = new Client({ transport: inMemoryTransport(host.endpoint), era });
  clients.push(client);
  await client.connect();
  const listed = await client.request('skills/list', {});
  const directory = await client.request('resources/directory/read', {
    uri: 'skill://style-guide',
  });
  const file_ = await client.readResource('skill://release-notes/templates/entry.md');
  return { capabilities: client.capabilities, listed, directory, file: file_ };
}

describe('skills declared by a Prolog provider', { timeout: scaled(60_000) }, () => {
  it('are served from an SWI module and a Logtalk object alike, in both eras', async () => {
    const fromModule = await skillsOf(write('skilled.pl', MODULE), '2026-07-28');
    expect(fromModule.capabilities.extensions).toMatchObject({
      'io.modelcontextprotocol/skills': { directoryRead: true },
    });
    const skills = fromModule.listed.skills as { uri: string; frontmatter: object }[];
    expect(skills.map((skill) => skill.uri)).toEqual([
      'skill://style-guide/SKILL.md',
      'skill://release-notes/SKILL.md',
    ]);
    expect(skills[1]?.frontmatter).toEqual({
      name: 'release-notes',
      description: 'Write release notes.',
      license: 'MIT',
    });
    expect(fromModule.directory.resources).toEqual([
      { uri: 'skill://style-guide/examples', name: 'examples', mimeType: 'inode/directory' },
      expect.objectContaining({ uri: 'skill://style-guide/SKILL.md' }),
    ]);
    expect(fromModule.file.contents[0]).toMatchObject({ text: '- entry' });

    const fromObject = await skillsOf(write('skilled.lgt', OBJECT), '2026-07-28');
    expect(fromObject.listed.skills).toEqual(fromModule.listed.skills);
    const legacy = await skillsOf(
      write('skilled_legacy.pl', MODULE.replace('skilled', 'skilled_legacy')),
      '2025-11-25',
    );
    expect(legacy.listed.skills).toEqual(fromModule.listed.skills);
    expect('ttlMs' in legacy.listed).toBe(false);
  });

  it('refuses a malformed skills/1 at start, one line per problem at its clause', async () => {
    const path = write(
      'bad_skills.pl',
      `:- module(bad_skills, []).\n\ntools([]).\n\nskills([\n    skill('Bad Name', [description("d"), instructions("i")]),\n    skill(ok, [description("d")]),\n    skill(esc, [description("d"), instructions("i"), file('../up.md', "x")]),\n    skill_directory(nowhere),\n    oops\n]).\n`,
    );
    const failure = await createLogtalkHost({ files: [path], workers: 1 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PrologProviderError);
    const lines = (failure as PrologProviderError).lines;
    expect(lines).toEqual([
      `${path}:5: skill name 'Bad Name' breaks the naming rule; expected 1-64 lower-case letters, digits and single hyphens, not at either end`,
      `${path}:5: skill ok has no instructions(Text); expected one`,
      `${path}:5: skill esc: file('../up.md', _): the path escapes the skill's root (segment "..")`,
      `${path}:5: skill_directory(nowhere): no such directory (relative to ${path})`,
      `${path}:5: skills/1 item oops is neither skill(Name, Properties) nor skill_directory(Dir)`,
    ]);
  });
});
