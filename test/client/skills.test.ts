import {
  Client,
  McpError,
  NotDeclaredByServerError,
  ProtocolViolationError,
  SkillVerificationError,
  httpTransport,
  type Skill,
} from '@rondo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkServer } from './support/sdkServer.js';
import { skillsServer, type SkillsServerState } from './support/sdkSkillsServer.js';

// The Skills extension (SEP-2640, `io.modelcontextprotocol/skills`) on @rondo/client, against a
// server written with the official SDK v2 over HTTP: listing and getting entries, loading a skill
// with its content verified against the entry, lazy reads, directory reads, and what a client must
// refuse. The official conformance scenarios sep-2640-client-* run in test/conformance/client.test.ts.

type Served = Awaited<ReturnType<typeof startSdkServer>>;

async function connect(url: string): Promise<Client> {
  const client = new Client({ transport: httpTransport({ url }), era: '2026-07-28' });
  await client.connect();
  return client;
}

describe('the Skills extension against an SDK v2 server', () => {
  const state: SkillsServerState = { reads: [], methods: [] };
  let served: Served;
  let client: Client;
  let entries: Skill[];
  const violations: Error[] = [];

  beforeAll(async () => {
    served = await startSdkServer(skillsServer(state, { directoryRead: true }));
    client = await connect(served.url);
    client.on('violation', (error) => violations.push(error));
    entries = await client.skills.listAll();
  });
  afterAll(async () => {
    await client?.close();
    await served?.close();
  });

  it('walks every page of skills/list, leaves out an invalid entry and reads no file', () => {
    expect(client.skills.available).toBe(true);
    expect(client.skills.directoryRead).toBe(true);
    expect(entries.map((entry) => entry.uri)).toEqual([
      'skill://pdf-processing/SKILL.md',
      'skill://acme/billing/refunds/SKILL.md',
      'skill://padded/SKILL.md',
      'skill://exfiltrate/SKILL.md',
      'skill://reports/daily/SKILL.md',
    ]);
    expect(state.methods.filter((method) => method === 'skills/list')).toHaveLength(3);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toBeInstanceOf(ProtocolViolationError);
    expect(violations[0]!.message).toContain('resources');
    expect(state.reads).toEqual([]);
  });

  it('loads a skill: SKILL.md verified, its body without the frontmatter, files read only when asked', async () => {
    const skill = await client.skills.load(entries[0]!);
    expect(skill.body).toBe('\nSee `templates/`.\n');
    expect(skill.root).toBe('skill://pdf-processing');
    expect(state.reads).toEqual(['skill://pdf-processing/SKILL.md']);
    const forms = await skill.readFile('references/FORMS.md');
    expect(forms.text).toBe('Forms: fill every field.\n');
    expect(forms.bytes.byteLength).toBe(25);
    await skill.readFile('skill://pdf-processing/references/FORMS.md');
    expect(state.reads).toEqual([
      'skill://pdf-processing/SKILL.md',
      'skill://pdf-processing/references/FORMS.md',
    ]);
  });

  it('refuses a file the held entry does not list, or a path out of the skill, without a request', async () => {
    const skill = await client.skills.load(entries[0]!);
    const before = state.reads.length;
    for (const file of [
      'templates/unknown.md',
      '../acme/billing/refunds/SKILL.md',
      'skill://padded/SKILL.md',
    ]) {
      const error = await skill.readFile(file).catch((caught: unknown) => caught);
      expect(error, file).toBeInstanceOf(SkillVerificationError);
      expect((error as SkillVerificationError).failure).toBe('unlisted');
    }
    expect(state.reads).toHaveLength(before);
  });

  it.each([
    ['skill://acme/billing/refunds/SKILL.md', 'digest'],
    ['skill://padded/SKILL.md', 'size'],
    ['skill://exfiltrate/SKILL.md', 'frontmatter'],
  ] as const)('refuses %s: its content fails the %s check', async (uri, failure) => {
    const entry = entries.find((candidate) => candidate.uri === uri)!;
    const error = await client.skills.load(entry).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SkillVerificationError);
    expect((error as SkillVerificationError).failure).toBe(failure);
    expect((error as SkillVerificationError).uri).toBe(uri);
  });

  it('gets and loads an unlisted skill by its URI; an unknown URI is -32602', async () => {
    const entry = await client.skills.get('skill://hidden/secret/SKILL.md');
    expect(entry.frontmatter).toEqual({
      name: 'secret',
      description: 'Not listed',
      metadata: { version: '1.0' },
    });
    const skill = await client.skills.load('skill://hidden/secret/SKILL.md');
    expect(skill.body).toBe('\nOnly by URI.\n');
    const error = await client.skills
      .get('skill://nowhere/SKILL.md')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
  });

  it('loads a dynamic skill (frontmatter checked) and reads under its root only', async () => {
    const entry = entries.find((candidate) => candidate.resources === 'dynamic')!;
    const skill = await client.skills.load(entry);
    expect(skill.files).toBe('dynamic');
    expect((await skill.readFile('data/today.csv')).text).toBe('a,b\n');
    const outside = await skill
      .readFile('skill://pdf-processing/SKILL.md')
      .catch((caught: unknown) => caught);
    expect((outside as SkillVerificationError).failure).toBe('unlisted');
  });

  it('reads directories page by page: files and subdirectories, not recursively', async () => {
    const root = await client.skills.readAllDirectory('skill://pdf-processing');
    expect(root.map((child) => [child.name, child.mimeType])).toEqual([
      ['SKILL.md', 'text/markdown'],
      ['references', 'inode/directory'],
      ['templates', 'inode/directory'],
    ]);
    const templates = await client.skills.readAllDirectory('skill://pdf-processing/templates');
    expect(templates.map((child) => child.uri)).toEqual([
      'skill://pdf-processing/templates/invoice.md',
      'skill://pdf-processing/templates/credit-note.md',
    ]);
    const error = await client.skills
      .readDirectory('skill://pdf-processing/SKILL.md')
      .catch((caught: unknown) => caught);
    expect((error as McpError).code).toBe(-32602);
  });

  it('refuses an entry past the extension limits before reading anything', async () => {
    const before = state.reads.length;
    const huge: Skill = {
      ...entries[0]!,
      resources: Array.from({ length: 513 }, (_, index) => ({
        uri: index === 0 ? entries[0]!.uri : `skill://pdf-processing/f${index}`,
        digest: `sha256:${'0'.repeat(64)}`,
        size: 1,
      })),
    };
    const error = await client.skills.load(huge).catch((caught: unknown) => caught);
    expect((error as SkillVerificationError).failure).toBe('too-large');
    expect(state.reads).toHaveLength(before);
  });
});

describe('a server that does not declare what a skills request needs', () => {
  it('is not sent skills requests, nor directory reads without directoryRead', async () => {
    const plain = await startSdkServer();
    const state: SkillsServerState = { reads: [], methods: [] };
    const noDirectories = await startSdkServer(skillsServer(state, { directoryRead: false }));
    const withoutSkills = await connect(plain.url);
    const withSkills = await connect(noDirectories.url);
    try {
      expect(withoutSkills.skills.available).toBe(false);
      await expect(withoutSkills.skills.list()).rejects.toBeInstanceOf(NotDeclaredByServerError);
      await expect(withoutSkills.skills.load('skill://x/SKILL.md')).rejects.toBeInstanceOf(
        NotDeclaredByServerError,
      );
      expect(withSkills.skills.directoryRead).toBe(false);
      await expect(withSkills.skills.readDirectory('skill://pdf-processing')).rejects.toThrow(
        /does not declare io.modelcontextprotocol\/skills with directoryRead: true/,
      );
      expect(state.methods).toEqual([]);
    } finally {
      await withoutSkills.close();
      await withSkills.close();
      await plain.close();
      await noDirectories.close();
    }
  });
});
