import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const README = readFileSync(join(root, 'packages/transport-http/README.md'), 'utf8');
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
    cwd: root,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const collect = (chunk: Buffer): void => {
      output += String(chunk);
      const found = /MCP over HTTP at (http:\/\/\S+)/.exec(output);
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
