import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/runtimes.js';
import { WsClientTransport } from './support/wsClientTransport.js';

const README = readFileSync(`${REPO_ROOT}packages/transport-ws/README.md`, 'utf8');
/** The complete programs in the README: the TypeScript blocks that read their port from PORT. */
const examples = [...README.matchAll(/```ts\n([\s\S]*?)```/g)]
  .map((match) => match[1]!)
  .filter((code) => code.includes('process.env.PORT'));

/** Runs one README program with PORT=0 and waits for the URL it prints. */
async function runExample(code: string): Promise<{ url: string; child: ChildProcess }> {
  const js = ts.transpileModule(code, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const child = spawn(process.execPath, ['--input-type=module', '-e', js], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const collect = (chunk: Buffer): void => {
      output += String(chunk);
      const found = /MCP over WebSocket at (ws:\/\/\S+)/.exec(output);
      if (found) resolve(found[1]!);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('exit', (exitCode) =>
      reject(new Error(`the example exited with ${exitCode}:\n${output}`)),
    );
  });
  return { url, child };
}

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
