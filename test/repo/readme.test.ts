import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { firstTypeScriptBlock, transpileExample } from '@rondo/test-support/readmeExample';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the root README', () => {
  it('serves its "server in a few lines" example over stdio', async () => {
    const file = join(root, `.readme-example-root-${process.pid}.mjs`);
    writeFileSync(file, transpileExample(firstTypeScriptBlock(join(root, 'README.md'))));
    try {
      const child = spawn(process.execPath, [file], {
        cwd: root,
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      const meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
      };
      const call = {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { _meta: meta, name: 'add', arguments: { a: 2, b: 3 } },
      };
      child.stdin.end(`${JSON.stringify(call)}\n`);
      expect(await exited).toBe(0);
      const answer = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
      expect(answer).toMatchObject({
        id: 1,
        result: { resultType: 'complete', content: [{ type: 'text', text: '5' }] },
      });
    } finally {
      rmSync(file, { force: true });
    }
  });
});
