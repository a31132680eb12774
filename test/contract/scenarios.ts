import { expect } from 'vitest';
import type { WireMessage } from '../stdio/support/wire.js';
import { META, type EraClient, type EraName } from './support/eras.js';
import type { ProviderName } from './support/servers.js';
import { HttpDriver, type TransportName } from './support/transports.js';

/** What a scenario runs with: one client of one era, connected over one transport to one provider. */
export interface Combination {
  client: EraClient;
  era: EraName;
  transport: TransportName;
  provider: ProviderName;
}

/** One row of the contract table, run in every combination. */
export interface Scenario {
  name: string;
  run(combination: Combination): Promise<void>;
}

const TOOL_NAMES = ['add', 'ask_name', 'echo', 'fails', 'log', 'progress', 'slow', 'toggle_extra'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The result of a response, failing with its error when there is none. */
function resultOf(response: WireMessage): Record<string, unknown> {
  expect(response.error, 'an error response').toBeUndefined();
  return response.result!;
}

/** Modern results carry `resultType: complete`; legacy results carry none. */
function expectEraShape(era: EraName, result: Record<string, unknown>): void {
  if (era === 'modern') expect(result.resultType).toBe('complete');
  else expect(result).not.toHaveProperty('resultType');
}

/** The error code of a response, and its data. */
async function errorOf(response: Promise<WireMessage>) {
  const { error, result } = await response;
  expect(result, 'a result where an error was due').toBeUndefined();
  return error!;
}

const text = (value: string) => ({ type: 'text', text: value });

export const SCENARIOS: Scenario[] = [
  {
    name: 'identifies itself: initialize (legacy) or server/discover (modern)',
    async run({ client, era }) {
      const result =
        era === 'legacy' ? client.initializeResult! : await client.call('server/discover');
      if (era === 'legacy') expect(result.protocolVersion).toBe('2025-11-25');
      else expect(result.supportedVersions).toContain('2026-07-28');
      const serverInfo =
        era === 'legacy'
          ? result.serverInfo
          : (result._meta as Record<string, unknown>)[META.serverInfo];
      expect(serverInfo).toMatchObject({ name: 'rondo-contract' });
      expect(Object.keys(result.capabilities as object)).toEqual(
        expect.arrayContaining(['tools', 'prompts', 'resources', 'completions']),
      );
      expectEraShape(era, result);
    },
  },
  {
    name: 'lists the tools with their input and output schemas',
    async run({ client, era }) {
      const result = await client.call('tools/list');
      expectEraShape(era, result);
      const tools = result.tools as { name: string; description?: string }[];
      expect(tools.map((tool) => tool.name).sort()).toEqual(TOOL_NAMES);
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      expect(byName.get('echo')).toMatchObject({
        description: 'Echoes its text',
        inputSchema: {
          type: 'object',
          properties: { text: { type: 'string' } },
          required: ['text'],
        },
      });
      expect(byName.get('add')).toMatchObject({
        outputSchema: {
          type: 'object',
          properties: { sum: { type: 'integer' } },
          required: ['sum'],
        },
      });
    },
  },
  {
    name: 'calls a tool and gets its text',
    async run({ client, era }) {
      const result = await client.call('tools/call', { name: 'echo', arguments: { text: 'hi' } });
      expectEraShape(era, result);
      expect(result.content).toEqual([text('echo: hi')]);
      expect(result.isError ?? false).toBe(false);
    },
  },
  {
    name: 'returns structured output with its text rendering',
    async run({ client }) {
      const result = await client.call('tools/call', { name: 'add', arguments: { a: 2, b: 3 } });
      expect(result.structuredContent).toEqual({ sum: 5 });
      expect(result.content).toEqual([text('5')]);
    },
  },
  {
    name: 'answers a failing tool and bad arguments with isError results',
    async run({ client }) {
      const failed = await client.call('tools/call', { name: 'fails', arguments: {} });
      expect(failed).toMatchObject({ isError: true, content: [text('this tool always fails')] });
      const bad = await client.call('tools/call', { name: 'echo', arguments: { text: 5 } });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain('text');
    },
  },
  {
    name: 'rejects an unknown tool with -32602',
    async run({ client }) {
      const error = await errorOf(
        client.request('tools/call', { name: 'no_such_tool', arguments: {} }),
      );
      expect(error.code).toBe(-32602);
    },
  },
  {
    name: 'lists and gets a prompt',
    async run({ client, era }) {
      const listed = await client.call('prompts/list');
      expectEraShape(era, listed);
      expect(listed.prompts).toEqual([
        expect.objectContaining({
          name: 'greeting',
          description: 'Greets someone by name',
          arguments: [expect.objectContaining({ name: 'name', required: true })],
        }),
      ]);
      const got = await client.call('prompts/get', {
        name: 'greeting',
        arguments: { name: 'Ada' },
      });
      expectEraShape(era, got);
      expect(got).toMatchObject({
        description: 'A greeting',
        messages: [{ role: 'user', content: text('Hello, Ada!') }],
      });
    },
  },
  {
    name: 'rejects prompts/get without a required argument with -32602',
    async run({ client }) {
      const error = await errorOf(
        client.request('prompts/get', { name: 'greeting', arguments: {} }),
      );
      expect(error.code).toBe(-32602);
      expect(error.message).toContain('name');
    },
  },
  {
    name: 'lists and reads a resource',
    async run({ client, era }) {
      const listed = await client.call('resources/list');
      expectEraShape(era, listed);
      expect(listed.resources).toEqual([
        expect.objectContaining({
          uri: 'contract://readme',
          name: 'readme',
          mimeType: 'text/plain',
        }),
      ]);
      const read = await client.call('resources/read', { uri: 'contract://readme' });
      expectEraShape(era, read);
      expect(read.contents).toEqual([
        { uri: 'contract://readme', mimeType: 'text/plain', text: 'Rondo contract resource' },
      ]);
    },
  },
  {
    name: "answers an unknown resource with its era's not-found error (-32002 legacy, -32602 modern)",
    async run({ client, era }) {
      const error = await errorOf(client.request('resources/read', { uri: 'contract://missing' }));
      expect(error.code).toBe(era === 'legacy' ? -32002 : -32602);
      if (era === 'modern') expect(error.data).toMatchObject({ uri: 'contract://missing' });
    },
  },
  {
    name: 'lists resource templates and reads a templated URI',
    async run({ client, era }) {
      const listed = await client.call('resources/templates/list');
      expectEraShape(era, listed);
      expect(listed.resourceTemplates).toEqual([
        expect.objectContaining({ uriTemplate: 'contract://items/{id}', name: 'item' }),
      ]);
      const read = await client.call('resources/read', { uri: 'contract://items/42' });
      expect(read.contents).toEqual([
        { uri: 'contract://items/42', mimeType: 'text/plain', text: 'Item 42' },
      ]);
    },
  },
  {
    name: 'completes a prompt argument',
    async run({ client, era }) {
      const result = await client.call('completion/complete', {
        ref: { type: 'ref/prompt', name: 'greeting' },
        argument: { name: 'name', value: 'A' },
      });
      expectEraShape(era, result);
      expect((result.completion as { values: string[] }).values).toEqual(['Ada', 'Alan']);
    },
  },
  {
    name: 'asks for input from a round hook: input_required (modern) or elicitation/create (legacy)',
    async run({ client, era }) {
      const from = client.received.length;
      const params = { name: 'ask_name', arguments: {} };
      if (era === 'legacy') {
        const asked: unknown[] = [];
        client.handle('elicitation/create', (request) => {
          asked.push(request.message);
          return { action: 'accept', content: { name: 'Ada' } };
        });
        const result = await client.call('tools/call', params);
        expect(result.content).toEqual([text('Hello, Ada!')]);
        expectEraShape(era, result);
        expect(asked).toEqual(['What is your name?']);
        return;
      }
      const first = await client.call('tools/call', params);
      expect(first).toMatchObject({
        resultType: 'input_required',
        inputRequests: {
          user_name: { method: 'elicitation/create', params: { message: 'What is your name?' } },
        },
      });
      expect(typeof first.requestState).toBe('string');
      const retry = client.send('tools/call', {
        ...params,
        inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
        requestState: first.requestState as string,
      });
      const second = resultOf(await retry.response);
      expect(second).toMatchObject({ resultType: 'complete', content: [text('Hello, Ada!')] });
      // Modern servers never send requests of their own.
      expect(client.received.slice(from).filter((m) => m.method && m.id !== undefined)).toEqual([]);
    },
  },
  {
    name: 'reports progress for a progressToken, before the result, and none without one',
    async run({ client }) {
      const from = client.received.length;
      const token = `progress-${from}`;
      const call = client.send(
        'tools/call',
        { name: 'progress', arguments: {} },
        { meta: { progressToken: token } },
      );
      const response = await call.response;
      expect(resultOf(response).content).toEqual([text('progress done')]);
      const seen = client.received.slice(from);
      const progress = seen.filter((m) => m.method === 'notifications/progress');
      expect(
        progress.map((m) => [m.params?.progressToken, m.params?.progress, m.params?.total]),
      ).toEqual([
        [token, 1, 3],
        [token, 2, 3],
        [token, 3, 3],
      ]);
      expect(seen.indexOf(progress.at(-1)!)).toBeLessThan(seen.indexOf(response));
      const quiet = client.received.length;
      await client.call('tools/call', { name: 'progress', arguments: {} });
      expect(
        client.received.slice(quiet).filter((m) => m.method === 'notifications/progress'),
      ).toEqual([]);
    },
  },
  {
    name: 'cancels a slow tool: no answer to it, and the server keeps serving',
    async run({ client, era, transport }) {
      const started = Date.now();
      const slowMs = 800;
      const slow = client.send('tools/call', { name: 'slow', arguments: { ms: slowMs } });
      await sleep(150);
      if (era === 'modern' && transport === 'http') {
        // A modern POST is cancelled by closing its response: a notifications/cancelled POST is
        // accepted (202) but not applied to a request on another POST.
        expect(client.driver.closeResponse(slow.id)).toBe(true);
      }
      await client.notify('notifications/cancelled', {
        requestId: slow.id,
        reason: 'contract test',
      });
      const echoed = await client.call('tools/call', {
        name: 'echo',
        arguments: { text: 'still here' },
      });
      expect(echoed.content).toEqual([text('echo: still here')]);
      // Past the time the tool would have finished, nothing answered the cancelled request.
      await sleep(Math.max(0, started + slowMs + 200 - Date.now()));
      expect(client.received.filter((m) => m.id === slow.id)).toEqual([]);
    },
  },
  {
    name: 'filters log messages by the level the client chose (_meta logLevel modern, logging/setLevel legacy)',
    async run({ client, era }) {
      const logsFrom = (from: number) =>
        client.received
          .slice(from)
          .filter((m) => m.method === 'notifications/message')
          .map((m) => [m.params?.level, m.params?.data]);
      const callLog = async (level: string | undefined) => {
        const from = client.received.length;
        if (era === 'legacy' && level) await client.call('logging/setLevel', { level });
        const meta = era === 'modern' && level ? { [META.logLevel]: level } : undefined;
        await client.call('tools/call', { name: 'log', arguments: {} }, meta ? { meta } : {});
        return from;
      };
      const info = await callLog('info');
      await client.waitFor(() => logsFrom(info).length >= 2, 2000, 0, 'the log lines');
      const warning = await callLog('warning');
      await client.waitFor(() => logsFrom(warning).length >= 1, 2000, 0, 'the warning line');
      await sleep(100);
      expect(logsFrom(info).slice(0, 2)).toEqual([
        ['info', 'contract info line'],
        ['warning', 'contract warning line'],
      ]);
      expect(logsFrom(warning)).toEqual([['warning', 'contract warning line']]);
      if (era === 'modern') {
        const none = await callLog(undefined);
        await sleep(100);
        expect(logsFrom(none)).toEqual([]);
      }
    },
  },
  {
    name: 'announces a tool list change (legacy: on the session; modern: on a subscriptions/listen stream)',
    async run({ client, era }) {
      const from = client.received.length;
      const changes = () =>
        client.received.slice(from).filter((m) => m.method === 'notifications/tools/list_changed');
      let listenId: number | undefined;
      if (era === 'modern') {
        listenId = client.send('subscriptions/listen', {
          notifications: { toolsListChanged: true },
        }).id;
        const ack = await client.waitFor(
          (m) => m.method === 'notifications/subscriptions/acknowledged',
          5000,
          from,
          'subscriptions/listen',
        );
        expect(ack.params?._meta?.[META.subscriptionId]).toBe(listenId);
      }
      const toggle = async (expected: string, count: number) => {
        const result = await client.call('tools/call', { name: 'toggle_extra', arguments: {} });
        expect(result.content).toEqual([text(expected)]);
        await client.waitFor(() => changes().length >= count, 5000, 0, 'the list change');
      };
      await toggle('added extra', 1);
      const grown = await client.call('tools/list');
      expect((grown.tools as { name: string }[]).map((tool) => tool.name)).toContain('extra');
      await toggle('removed extra', 2);
      const shrunk = await client.call('tools/list');
      expect((shrunk.tools as { name: string }[]).map((tool) => tool.name).sort()).toEqual(
        TOOL_NAMES,
      );
      await sleep(50);
      expect(changes()).toHaveLength(2);
      if (era === 'modern') {
        for (const change of changes())
          expect(change.params?._meta?.[META.subscriptionId]).toBe(listenId);
        await client.notify('notifications/cancelled', { requestId: listenId });
      }
    },
  },
  {
    name: 'rejects bad params with -32602',
    async run({ client }) {
      expect((await errorOf(client.request('resources/read', {}))).code).toBe(-32602);
      expect((await errorOf(client.request('tools/call', { arguments: {} }))).code).toBe(-32602);
    },
  },
  {
    name: 'rejects an unknown method with -32601 (on modern HTTP, status 404)',
    async run({ client, era }) {
      const unknown = client.send('no/such/method', {});
      expect((await errorOf(unknown.response)).code).toBe(-32601);
      if (era === 'modern' && client.driver instanceof HttpDriver)
        expect(client.driver.statuses.get(unknown.id)).toBe(404);
    },
  },
  {
    name: 'answers text that is not JSON with -32700 (on HTTP, status 400) and keeps serving',
    async run({ client }) {
      const from = client.received.length;
      await client.sendText('{"jsonrpc": "2.0", "id": 99, "method": ', 'tools/list');
      const parseError = await client.waitFor((m) => m.error !== undefined, 5000, from, 'non-JSON');
      expect(parseError).toMatchObject({ id: null, error: { code: -32700 } });
      if (client.driver instanceof HttpDriver) expect(client.driver.textStatus).toBe(400);
      const listed = await client.call('tools/list');
      expect(listed.tools).toBeDefined();
    },
  },
];
