// Drives the official v1 SDK's WebSocketClientTransport (global WebSocket: Node 22, or Node 20 with
// --experimental-websocket) against a Rondo server; prints one JSON report on stdout.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const url = process.argv[2];
const report = { node: process.version, elicitations: [], steps: {} };
const client = new Client(
  { name: 'sdk-v1-ws', version: '1.0.0' },
  { capabilities: { elicitation: {} } },
);
client.setRequestHandler(ElicitRequestSchema, async (request) => {
  report.elicitations.push(request.params);
  const properties = request.params.requestedSchema?.properties ?? {};
  const content =
    'username' in properties
      ? { username: 'testuser', email: 'test@example.com' }
      : { name: 'Alice' };
  return { action: 'accept', content };
});
const transport = new WebSocketClientTransport(new URL(url));
try {
  await client.connect(transport);
  report.protocol = transport._socket?.protocol;
  report.steps.serverVersion = client.getServerVersion();
  report.steps.tools = (await client.listTools()).tools.map((tool) => tool.name);
  report.steps.simpleText = await client.callTool(
    { name: 'test_simple_text', arguments: {} },
    CallToolResultSchema,
  );
  report.steps.prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
  report.steps.prompt = await client.getPrompt({ name: 'test_simple_prompt' });
  report.steps.resources = (await client.listResources()).resources.map((resource) => resource.uri);
  report.steps.resource = await client.readResource({ uri: 'test://static-text' });
  report.steps.elicitation = await client.callTool({
    name: 'test_elicitation',
    arguments: { message: 'Please provide your information' },
  });
  report.steps.shim = await client.callTool({
    name: 'test_input_required_result_elicitation',
    arguments: {},
  });
  await client.close();
  report.ok = true;
} catch (error) {
  report.ok = false;
  report.error = String(error?.stack ?? error);
}
process.stdout.write(`${JSON.stringify(report)}\n`);
process.exit(0);
