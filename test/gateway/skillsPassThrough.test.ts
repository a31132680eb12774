import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, httpTransport, type Skill } from '@rondo/client';
import { createServer, serve, text, type RunningServer } from '@rondo/server';
import { skills } from '@rondo/skills';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { logtalkHomeForTests } from '@rondo/test-support/logtalkHome';
import { startGateway, writeConfig, type RunningGateway } from './support.js';

// Issue 40, done-when 5: the Skills extension passes through the gateway: skills/list, skills/get
// and resources/directory/read (and the skills' files, through resources/read) reach a Rondo
// upstream with skills over HTTP and a prolog entry whose provider declares skills/1, each URI to
// the one entry whose skill it lies under.

logtalkHomeForTests();
const dir = mkdtempSync(join(tmpdir(), 'rondo-gateway-skills-'));
mkdirSync(join(dir, 'docs/style-guide/examples'), { recursive: true });
writeFileSync(
  join(dir, 'docs/style-guide/SKILL.md'),
  '---\nname: style-guide\ndescription: House style.\n---\n\nSee examples/.\n',
);
writeFileSync(join(dir, 'docs/style-guide/examples/one.pl'), 'ok.\n');
writeFileSync(
  join(dir, 'skilled.pl'),
  `:- module(skilled, []).

skills([
    skill('release-notes', [
        description("Write release notes."),
        instructions("# Release notes"),
        file('templates/entry.md', "- entry")
    ]),
    skill_directory(docs)
]).
`,
);

const FORMS = '# Forms\n\nFill every field.\n';
/** The skill URIs the upstream was asked about (`skills/get`, reads), by method. */
const askedUpstream: string[] = [];
let upstream: RunningServer;
let upstreamUrl = '';
let gateway: RunningGateway;

beforeAll(async () => {
  const server = createServer({ name: 'skilled-upstream', version: '1.0.0', log: () => undefined })
    .tool('noop', {}, () => text('ok'))
    .use(async (call, next) => {
      const uri = (call.params as { uri?: unknown }).uri;
      if (typeof uri === 'string') askedUpstream.push(`${call.method} ${uri}`);
      return next();
    })
    .use(
      skills({
        directoryRead: true,
        skills: [
          {
            name: 'pdf-forms',
            description: 'Fill in PDF forms.',
            instructions: '# PDF forms',
            files: { 'references/FORMS.md': FORMS },
          },
        ],
      }),
    );
  upstream = await serve(server, { transport: 'http', host: '127.0.0.1', port: 0, quiet: true });
  upstreamUrl = upstream.url ?? '';
  const config = writeConfig({
    remote: { url: upstreamUrl },
    prolog: { prolog: join(dir, 'skilled.pl') },
  });
  gateway = await startGateway(config);
}, scaled(90_000));

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function connected(era: '2026-07-28' | '2025-11-25'): Promise<Client> {
  const client = new Client({ transport: httpTransport({ url: gateway.url.href }), era });
  await client.connect();
  return client;
}

const uris = (entries: readonly { uri: string }[]) => entries.map((entry) => entry.uri);

describe.each(['2026-07-28', '2025-11-25'] as const)(
  'skills through the gateway, a %s caller',
  { timeout: scaled(90_000) },
  (era) => {
    it('lists the skills of the upstream and of the prolog entry, and gets each', async () => {
      const client = await connected(era);
      try {
        expect(client.skills.available).toBe(true);
        expect(client.skills.directoryRead).toBe(true);
        const listed = await client.skills.listAll();
        expect(uris(listed)).toEqual([
          'skill://pdf-forms/SKILL.md',
          'skill://style-guide/SKILL.md',
          'skill://release-notes/SKILL.md',
        ]);
        const direct = new Client({ transport: httpTransport({ url: upstreamUrl }), era });
        await direct.connect();
        try {
          // The upstream's entry as it gives it, manifest and digests included.
          expect(listed[0]).toEqual((await direct.skills.listAll())[0]);
        } finally {
          await direct.close();
        }
        const got = await client.skills.get('skill://release-notes/SKILL.md');
        expect(got).toEqual(listed[2]);
        expect((await client.skills.get('skill://pdf-forms/SKILL.md')).frontmatter).toEqual({
          name: 'pdf-forms',
          description: 'Fill in PDF forms.',
        });
      } finally {
        await client.close();
      }
    });

    it("reads each entry's directories and files, verified against the listed digests", async () => {
      const client = await connected(era);
      try {
        expect(uris(await client.skills.readAllDirectory('skill://pdf-forms/references'))).toEqual([
          'skill://pdf-forms/references/FORMS.md',
        ]);
        expect(uris(await client.skills.readAllDirectory('skill://style-guide'))).toEqual(
          expect.arrayContaining(['skill://style-guide/SKILL.md', 'skill://style-guide/examples']),
        );
        const listed: Skill[] = await client.skills.listAll();
        const forms = await client.skills.load(listed[0]!);
        expect((await forms.readFile('references/FORMS.md')).text).toBe(FORMS);
        const notes = await client.skills.load('skill://release-notes/SKILL.md');
        expect((await notes.readFile('templates/entry.md')).text).toBe('- entry');
        const style = await client.skills.load(listed[1]!);
        expect((await style.readFile('examples/one.pl')).text).toBe('ok.\n');
        // Each URI went to the entry whose skill it lies under, never to the other.
        expect(askedUpstream.length).toBeGreaterThan(0);
        expect(askedUpstream.filter((asked) => !asked.includes(' skill://pdf-forms/'))).toEqual([]);
        expect(gateway.stderr()).not.toMatch(/left out/);
      } finally {
        await client.close();
      }
    });

    it('answers -32602 for a skill no entry lists, and keeps serving', async () => {
      const client = await connected(era);
      try {
        await expect(client.skills.get('skill://nowhere/SKILL.md')).rejects.toMatchObject({
          code: -32602,
          message: 'Unknown skill: skill://nowhere/SKILL.md',
        });
        await expect(client.skills.readDirectory('skill://nowhere/docs')).rejects.toMatchObject({
          code: -32602,
        });
        expect(await client.skills.listAll()).toHaveLength(3);
      } finally {
        await client.close();
      }
    });
  },
);
