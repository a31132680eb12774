import { fileURLToPath } from 'node:url';
import { forgetNegotiatedEras } from '@rondo/client';
import { createEndpoint, createServer } from '@rondo/core';
import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { ErrorCode } from '@rondo/protocol';
import { tasks } from '@rondo/tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { proxy, withPassThrough, type ProxyProvider } from '../src/index.js';
import { clientOf } from './support.js';

// Issue 26: a legacy (2025-11-25) upstream's tasks are usable by a modern client through the
// Tasks extension. The official everything server (stdio, legacy era only) runs
// `simulate-research-query` only as a task of its own (`execution.taskSupport: "required"`, four
// one-second stages); behind the gateway a modern caller runs it as a task of the gateway's, whose
// run calls the upstream as a task, and a legacy caller calls it as an ordinary call.
const EVERYTHING_MAIN = fileURLToPath(
  new URL(
    '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
    import.meta.url,
  ),
);
const RESEARCH = 'e_simulate-research-query';

let provider: ProxyProvider;
let endpoint: ReturnType<typeof withPassThrough>;
let close: () => Promise<void>;
beforeAll(async () => {
  provider = proxy(
    { command: process.execPath, args: [EVERYTHING_MAIN, 'stdio'] },
    {
      namespace: 'e',
    },
  );
  const server = createServer({ name: 'gateway', version: '1.0.0' })
    .provider(provider)
    .use(tasks());
  endpoint = withPassThrough(
    createEndpoint(server, { modern: modernEra(), legacy: legacyEra() }),
    server,
  );
  await endpoint.ready();
  close = () => server.close();
}, scaled(60_000));
afterAll(async () => {
  forgetNegotiatedEras();
  await close();
});

function textOf(result: { content: readonly { type: string; text?: string }[] }): string {
  return result.content.map((item) => item.text ?? '').join('');
}

describe("a legacy upstream's task-only tool", () => {
  it('declares the task support the upstream declared, and none for its other tools', () => {
    expect(provider.taskSupport(RESEARCH)).toEqual({ support: 'required' });
    expect(provider.taskSupport('e_echo')).toBeUndefined();
  });

  it(
    'runs as a task for a modern caller and as an ordinary call for a legacy one',
    { timeout: scaled(30_000) },
    async () => {
      const modern = await clientOf(endpoint, '2026-07-28');
      const legacy = await clientOf(endpoint, '2025-11-25');
      const task = await modern.callToolAsTask(RESEARCH, { topic: 'tides' });
      expect(task.created.status).toBe('working');
      const [asTask, ordinary] = await Promise.all([
        task.result(),
        legacy.callTool(RESEARCH, { topic: 'moons' }),
      ]);
      expect(textOf(asTask)).toContain('tides');
      expect(textOf(ordinary)).toContain('moons');
      // Without the extension a modern caller is told what it lacks, as the upstream would say.
      await expect(modern.callTool(RESEARCH, { topic: 'tides' })).rejects.toMatchObject({
        code: ErrorCode.MissingClientCapability,
      });
      await modern.close();
      await legacy.close();
    },
  );

  it(
    "turns the upstream's question inside its task into input of the gateway's task",
    { timeout: scaled(30_000) },
    async () => {
      const asked: string[] = [];
      const modern = await clientOf(endpoint, '2026-07-28', {
        elicitation: (params) => {
          const schema = params as { requestedSchema: { properties: Record<string, unknown> } };
          const options = (
            schema.requestedSchema.properties.interpretation as {
              oneOf: { const: string }[];
            }
          ).oneOf;
          asked.push(options[0]!.const);
          return { action: 'accept', content: { interpretation: options[0]!.const } };
        },
      });
      const task = await modern.callToolAsTask(RESEARCH, { topic: 'python', ambiguous: true });
      const report = textOf(await task.result());
      expect(asked).toHaveLength(1);
      expect(report).toContain(`**Clarification**: ${asked[0]}`);
      await modern.close();
    },
  );
});
