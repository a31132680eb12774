import { runtimeOf } from '@rondo/core/internal';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RondoServer } from '@rondo/core';
import { createEverythingServer, WATCHED_RESOURCE } from '@rondo/conformance-fixture';

// The names the conformance suite's scenarios call (alpha.12), each of which must be served.
const SUITE_TOOLS = [
  'test_simple_text',
  'test_image_content',
  'test_audio_content',
  'test_embedded_resource',
  'test_multiple_content_types',
  'test_tool_with_logging',
  'test_error_handling',
  'test_tool_with_progress',
  'test_sampling',
  'test_elicitation',
  'test_elicitation_sep1034_defaults',
  'test_elicitation_sep1330_enums',
  'json_schema_2020_12_tool',
  'test_reconnection',
  'test_missing_capability',
  'test_streaming_elicitation',
  'test_logging_tool',
  'test_trigger_tool_change',
  'test_trigger_prompt_change',
  // The tasks-* scenarios.
  'greet',
  'slow_compute',
  'failing_job',
  'protocol_error_job',
  'confirm_delete',
  'multi_input',
  'test_tool_with_task',
  ...[
    'elicitation',
    'sampling',
    'list_roots',
    'request_state',
    'multiple_inputs',
    'multi_round',
    'tampered_state',
    'capabilities',
  ].map((name) => `test_input_required_result_${name}`),
];
const SUITE_PROMPTS = [
  'test_simple_prompt',
  'test_prompt_with_arguments',
  'test_prompt_with_embedded_resource',
  'test_prompt_with_image',
  'test_input_required_result_prompt',
];
const SUITE_RESOURCES = ['test://static-text', 'test://static-binary', WATCHED_RESOURCE];

const servers: RondoServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function readyServer(watchIntervalMs = 60_000): Promise<RondoServer> {
  const server = createEverythingServer({
    watchIntervalMs,
    requestState: { key: 'surface-test-key-0123456789abcdef0123456' },
  });
  servers.push(server);
  await runtimeOf(server).ready();
  return server;
}

describe('the everything server surface', () => {
  it('serves every tool, prompt and resource the suite uses', async () => {
    const { catalog } = runtimeOf(await readyServer());
    expect(catalog.tools.map((t) => t.definition.name)).toEqual(
      expect.arrayContaining(SUITE_TOOLS),
    );
    expect(catalog.prompts.map((p) => p.definition.name)).toEqual(
      expect.arrayContaining(SUITE_PROMPTS),
    );
    expect(catalog.resources.map((r) => r.definition.uri)).toEqual(
      expect.arrayContaining(SUITE_RESOURCES),
    );
    expect(catalog.templates.map((t) => t.definition.uriTemplate)).toEqual([
      'test://template/{id}/data',
      // The files of the skills (sep-2640-skills-* scenarios).
      'skill://{skill}/{+path}',
    ]);
  });

  it('describes every tool and prompt, with names the 2025-11-25 format allows', async () => {
    const { catalog } = runtimeOf(await readyServer());
    for (const { definition } of [...catalog.tools, ...catalog.prompts]) {
      expect(definition.description, definition.name).toBeTruthy();
      expect(definition.name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
    }
  });

  it('gives json_schema_2020_12_tool the 2020-12 keywords the suite looks for', async () => {
    const { catalog } = runtimeOf(await readyServer());
    const schema = catalog.tool('json_schema_2020_12_tool')?.definition.inputSchema;
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $defs: { address: { $anchor: 'addressDef' } },
      additionalProperties: false,
      allOf: [{ anyOf: expect.any(Array) }],
      if: expect.any(Object),
      then: expect.any(Object),
      else: expect.any(Object),
    });
  });

  it('names every served tool, prompt and resource in its README', async () => {
    const { catalog } = runtimeOf(await readyServer());
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const names = [
      ...catalog.tools.map((t) => t.definition.name),
      ...catalog.prompts.map((p) => p.definition.name),
      ...catalog.resources.map((r) => r.definition.uri),
    ];
    expect(names.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });

  it('changes the watched resource on its timer, and stops when the server closes', async () => {
    const server = createEverythingServer({
      watchIntervalMs: 10,
      requestState: { key: 'k-key-0123456789abcdef0123456789abcdef' },
    });
    const updates: string[] = [];
    runtimeOf(server).onChange((change) => {
      if (change.kind === 'resource') updates.push(change.uri);
    });
    await vi.waitFor(() => expect(updates.length).toBeGreaterThanOrEqual(2), { timeout: 2000 });
    expect(new Set(updates)).toEqual(new Set([WATCHED_RESOURCE]));
    await server.close();
    const count = updates.length;
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(updates).toHaveLength(count);
  });

  it('adds and removes the dynamic tool on each trigger', async () => {
    const server = await readyServer();
    const changes: string[] = [];
    runtimeOf(server).onChange((change) => changes.push(change.kind));
    await runtimeOf(server).callTool('test_trigger_tool_change', {}, {} as never);
    await vi.waitFor(() =>
      expect(runtimeOf(server).catalog.tool('test_dynamic_tool')).toBeDefined(),
    );
    await runtimeOf(server).callTool('test_trigger_tool_change', {}, {} as never);
    await vi.waitFor(() =>
      expect(runtimeOf(server).catalog.tool('test_dynamic_tool')).toBeUndefined(),
    );
    expect(changes).toEqual(['tools', 'tools']);
  });
});
