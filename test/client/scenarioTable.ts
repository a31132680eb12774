import {
  McpError,
  RequestAbortedError,
  type Client,
  type ClientHandlers,
  type ProgressUpdate,
} from '@rondo/client';
import { expect } from 'vitest';

/**
 * The client's scenario table: each entry drives a connected client against the conformance
 * fixture (the everything server written with Rondo) and asserts what the caller sees. The same
 * entries run over every transport and in both eras, since the client's API is one for both.
 */
export interface ClientScenario {
  readonly name: string;
  run(client: Client): Promise<void>;
}

/** Handlers written once, answering legacy server requests and modern input_required rounds alike. */
export const scenarioHandlers: ClientHandlers = {
  elicitation: (params) => {
    const fields = Object.keys(
      (params as { requestedSchema?: { properties?: object } }).requestedSchema?.properties ?? {},
    );
    const content: Record<string, string | boolean> = {};
    for (const field of fields) content[field] = field === 'ok' ? true : 'Ada';
    return { action: 'accept', content };
  },
  sampling: () => ({
    role: 'assistant',
    content: { type: 'text', text: 'Paris' },
    model: 'test-model',
  }),
  roots: () => [{ uri: 'file:///work', name: 'work' }],
};

function textOf(result: { content: unknown[] }): string {
  return result.content.map((item) => (item as { text?: string }).text ?? '').join('');
}

export const clientScenarios: readonly ClientScenario[] = [
  {
    name: 'lists every tool and calls one',
    async run(client) {
      const tools = await client.listAllTools();
      expect(tools.map((tool) => tool.name)).toContain('test_simple_text');
      const result = await client.callTool('test_simple_text');
      expect(textOf(result)).toBe('This is a simple text response for testing.');
    },
  },
  {
    name: 'reports a tool error as a result and an unknown tool as an McpError',
    async run(client) {
      const failed = await client.callTool('test_error_handling');
      expect(failed.isError).toBe(true);
      const unknown = await client.callTool('no_such_tool').catch((error: unknown) => error);
      expect(unknown).toBeInstanceOf(McpError);
      expect((unknown as McpError).code).toBe(-32602);
    },
  },
  {
    name: 'delivers progress to the call that asked for it',
    async run(client) {
      const updates: ProgressUpdate[] = [];
      await client.callTool('test_tool_with_progress', {}, { onProgress: (p) => updates.push(p) });
      expect(updates.length).toBeGreaterThan(0);
      expect(updates[0]).toMatchObject({ progress: 0, total: 100 });
    },
  },
  {
    name: 'answers elicitation, sampling and roots with the same handlers',
    async run(client) {
      const result = await client.callTool('test_input_required_result_multiple_inputs');
      expect(result.isError).not.toBe(true);
      const text = textOf(result);
      expect(text).toContain('Ada');
      expect(text).toContain('Paris');
    },
  },
  {
    name: 'gets prompts and completes their arguments',
    async run(client) {
      const prompts = await client.listAllPrompts();
      expect(prompts.map((prompt) => prompt.name)).toContain('test_prompt_with_arguments');
      const got = await client.getPrompt('test_prompt_with_arguments', { arg1: 'a', arg2: 'b' });
      expect(got.messages.length).toBeGreaterThan(0);
      const completed = await client.complete(
        { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
        { name: 'arg1', value: '' },
      );
      expect(Array.isArray(completed.completion.values)).toBe(true);
    },
  },
  {
    name: 'reads resources and resource templates',
    async run(client) {
      const resources = await client.listAllResources();
      expect(resources.map((resource) => resource.uri)).toContain('test://static-text');
      const read = await client.readResource('test://static-text');
      expect(read.contents[0]).toMatchObject({ uri: 'test://static-text' });
      const templates = await client.listAllResourceTemplates();
      expect(templates.map((t) => t.uriTemplate)).toContain('test://template/{id}/data');
      const fromTemplate = await client.readResource('test://template/7/data');
      expect(fromTemplate.contents[0]).toMatchObject({ uri: 'test://template/7/data' });
    },
  },
  {
    name: 'cancels a call through its AbortSignal and keeps serving',
    async run(client) {
      const controller = new AbortController();
      const call = client.callTool('test_slow_tool', { ms: 60_000 }, { signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      await expect(call).rejects.toBeInstanceOf(RequestAbortedError);
      expect(textOf(await client.callTool('test_simple_text'))).toContain('simple text');
    },
  },
  {
    name: 'hears that the tool list changed',
    async run(client) {
      const subscription = await client.subscribe({ toolsListChanged: true });
      try {
        const heard = new Promise<void>((resolve) => {
          const off = client.on('toolsListChanged', () => {
            off();
            resolve();
          });
        });
        await client.callTool('test_trigger_tool_change');
        await heard;
      } finally {
        await client.callTool('test_trigger_tool_change');
        await subscription.close();
      }
    },
  },
];
