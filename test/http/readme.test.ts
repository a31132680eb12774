import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { listeningExamples, startListeningExample } from '@rondo/test-support/readmeExample';

const root = join(import.meta.dirname, '..', '..');
/** The complete programs in the README: the TypeScript blocks that read their port from PORT. */
const examples = listeningExamples(join(root, 'packages/transport-http/README.md'));

/** Runs one README program with PORT=0 and waits for the URL it prints. */
const runExample = (code: string) =>
  startListeningExample(code, root, /MCP over HTTP at (http:\/\/\S+)/);

describe('the transport-http README examples', () => {
  it('has the serveHttp, node handler and express examples', () => {
    expect(examples).toHaveLength(3);
    expect(examples[0]).toContain('serveHttp(');
    expect(examples[1]).toContain('createHttpHandler(');
    expect(examples[2]).toContain('mcpRouter(');
  });

  it.each([
    ['serveHttp', 0, 'greet', { name: 'README' }, 'Hello, README!'],
    ['node handler', 1, 'now', {}, /^\d{4}-\d\d-\d\dT/],
    ['express router', 2, 'echo', { words: 'via express' }, 'via express'],
  ] as const)(
    'runs the %s example for modern and legacy clients',
    async (_label, index, tool, args, expected) => {
      const { url, child } = await runExample(examples[index]!);
      try {
        for (const versionNegotiation of [{ mode: { pin: '2026-07-28' } }, undefined] as const) {
          const client = new Client(
            { name: 'readme-test', version: '1.0.0' },
            versionNegotiation ? { versionNegotiation } : {},
          );
          await client.connect(new StreamableHTTPClientTransport(new URL(url)));
          const result = await client.callTool({ name: tool, arguments: args });
          const [first] = result.content as { type: string; text: string }[];
          expect(first!.text).toMatch(expected);
          await client.close();
        }
      } finally {
        child.kill('SIGTERM');
      }
    },
  );
});
