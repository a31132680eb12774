import { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { listeningExamples, startListeningExample } from '@rondo/test-support/readmeExample';
import { REPO_ROOT } from './support/runtimes.js';
import { WsClientTransport } from './support/wsClientTransport.js';

/** The complete programs in the README: the TypeScript blocks that read their port from PORT. */
const examples = listeningExamples(`${REPO_ROOT}packages/transport-ws/README.md`);

/** Runs one README program with PORT=0 and waits for the URL it prints. */
const runExample = (code: string) =>
  startListeningExample(code, REPO_ROOT, /MCP over WebSocket at (ws:\/\/\S+)/);

describe('the README examples', () => {
  it('contains the standalone and the attached example', () => {
    expect(examples).toHaveLength(2);
    expect(examples[0]).toContain('serveWebSocket(');
    expect(examples[1]).toContain('attachWebSocket(');
  });

  it.each([
    ['standalone', 0, 'greet', { name: 'README' }, 'Hello, README!'],
    ['attached to an http.Server', 1, 'now', {}, /^\d{4}-\d\d-\d\dT/],
  ] as const)(
    'runs the %s example and serves a modern client',
    async (_label, index, tool, args, expected) => {
      const { url, child } = await runExample(examples[index]!);
      const exited = new Promise<number | null>((resolve) =>
        child.once('exit', (exitCode) => resolve(exitCode)),
      );
      try {
        const client = new Client(
          { name: 'readme-test', version: '1.0.0' },
          { versionNegotiation: { mode: { pin: '2026-07-28' } } },
        );
        await client.connect(new WsClientTransport(url));
        const result = await client.callTool({ name: tool, arguments: args });
        expect((result.content as { text: string }[])[0]!.text).toMatch(expected);
        await client.close();
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
    },
  );
});
