/** The provider files of a TypeScript project: the server and its test. */
export function typescriptFiles(name: string): Record<string, string> {
  return { 'src/server.ts': serverSource(name), 'src/server.test.ts': TEST_SOURCE };
}

function serverSource(name: string): string {
  return `import { z } from 'zod';
import { contents, createServer, message, messages, serve, text, textContent } from '@rondo/server';

// One tool, one prompt and one resource; see Rondo's guides for the rest of the vocabulary.
const server = createServer({ name: ${JSON.stringify(name)}, version: '0.1.0' })
  .tool(
    'add',
    { description: 'Adds two numbers', input: z.object({ a: z.number(), b: z.number() }) },
    ({ a, b }) => text(String(a + b)),
  )
  .prompt(
    'greeting',
    {
      description: 'Asks for a short greeting',
      arguments: [{ name: 'name', description: 'Who to greet', required: true }],
    },
    (args) => messages([message('user', \`Write a short greeting for \${args.name ?? 'someone'}.\`)]),
  )
  .resource(
    'info://about',
    { name: 'about', description: 'What this server is', mimeType: 'text/plain' },
    (uri) => contents([textContent(uri, 'text/plain', ${JSON.stringify(`${name}, made with create-rondo.`)})]),
  );

await serve(server, { transport: 'stdio', stopOnSignals: ['SIGINT', 'SIGTERM'] });
`;
}

const TEST_SOURCE = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@rondo/client';
import { stdioTransport } from '@rondo/client/node';

const serverFile = fileURLToPath(new URL('./server.js', import.meta.url));

test('the tool, the prompt and the resource answer an MCP client', async () => {
  const client = new Client({
    transport: stdioTransport({ command: process.execPath, args: [serverFile] }),
  });
  await client.connect();
  try {
    const sum = await client.callTool('add', { a: 2, b: 3 });
    assert.deepEqual(sum.content, [{ type: 'text', text: '5' }]);
    const prompt = await client.getPrompt('greeting', { name: 'Ada' });
    assert.match(JSON.stringify(prompt.messages), /greeting for Ada/);
    const about = await client.readResource('info://about');
    assert.match(JSON.stringify(about.contents), /made with create-rondo/);
  } finally {
    await client.close();
  }
});
`;
