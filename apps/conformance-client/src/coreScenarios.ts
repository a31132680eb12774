import type { Client } from '@rondo/client';
import { withClient } from './connect.js';
import type { ScenarioRun, ScenarioTable } from './scenario.js';

/** Lists the tools and calls the first one with the arguments the suite's `add` tool takes. */
async function listAndCallFirst(client: Client): Promise<void> {
  const [first] = await client.listAllTools();
  if (first) await client.callTool(first.name, { a: 2, b: 3 });
}

/** Calls every tool the client kept (tools with invalid header declarations are left out). */
async function callEveryTool(client: Client): Promise<void> {
  for (const tool of await client.listAllTools()) await client.callTool(tool.name, {});
}

/** Touches every tool, resource and prompt, so every request kind carries its headers. */
async function useEverything(client: Client): Promise<void> {
  await callEveryTool(client);
  for (const resource of await client.listAllResources()) await client.readResource(resource.uri);
  for (const prompt of await client.listAllPrompts()) await client.getPrompt(prompt.name, {});
}

/** The calls the scenario's context lists (`toolCalls`), after listing the tools. */
async function contextToolCalls(client: Client, run: ScenarioRun): Promise<void> {
  await client.listAllTools();
  const calls = (run.context.toolCalls ?? []) as {
    name: string;
    arguments?: Record<string, unknown>;
  }[];
  for (const call of calls) await client.callTool(call.name, call.arguments ?? {});
}

/** Echoes the input schema of the focal tool back, unchanged, through the echo tool. */
async function echoSchema(client: Client): Promise<void> {
  const tools = await client.listAllTools();
  const focal = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
  if (!focal) throw new Error('the tool json_schema_2020_12_tool is not listed');
  await client.callTool('json_schema_echo', { schema: focal.inputSchema });
}

/** The MRTR tools: a round with a request state, an unrelated call between, a round without state, a result without resultType. */
async function mrtrRounds(client: Client): Promise<void> {
  await client.listAllTools();
  for (const name of [
    'test_mrtr_echo_state',
    'test_mrtr_unrelated',
    'test_mrtr_no_state',
    'test_mrtr_no_result_type',
  ]) {
    await client.callTool(name, {});
  }
}

/** The non-auth client scenarios, by name. */
export const coreScenarios: ScenarioTable = {
  initialize: (run) => withClient(run, listAndCallFirst),
  tools_call: (run) => withClient(run, listAndCallFirst),
  'elicitation-sep1034-client-defaults': (run) =>
    withClient(run, async (client) => {
      await client.listAllTools();
      await client.callTool('test_client_elicitation_defaults', {});
    }),
  'sse-retry': (run) => withClient(run, listAndCallFirst),
  'request-metadata': (run) => withClient(run, async (client) => void (await client.listTools())),
  'sep-2322-client-request-state': (run) =>
    withClient(run, mrtrRounds, {
      elicitation: () => ({ action: 'accept', content: { confirmed: true } }),
    }),
  'http-standard-headers': (run) => withClient(run, useEverything),
  'http-custom-headers': (run) => withClient(run, (client) => contextToolCalls(client, run)),
  'http-invalid-tool-headers': (run) => withClient(run, callEveryTool),
  'json-schema-ref-no-deref': (run) =>
    withClient(run, async (client) => void (await client.listAllTools())),
  'json-schema-2020-12-preservation': (run) => withClient(run, echoSchema),
};
