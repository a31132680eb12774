import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer } from '@rondo/core';
import { createPrologProvider, type PrologProvider } from '@rondo/logtalk-bridge';
import { text } from '@rondo/protocol';
import { bridgeFixture } from '../bridge/support/paths.js';
import { bothEras, serveAndConnect, type Served } from '../middleware/middlewareServer.js';
import { RawClient, nestedArrays } from './support.js';
import { scaled } from '@rondo/test-support/timeFactor';

// Deeply nested arguments used to overflow the call stack in validation and in the bridge's
// conversion, and took both Prolog workers down with them: the core now refuses them first.

const LIMIT_MESSAGE =
  'Invalid params: arguments nest deeper than 64 levels (limit maxArgumentDepth)';

/** Four concurrent calls with 20,000-level arguments: all refused with -32602, within 3 s. */
async function refusesFourDeepCalls(client: RawClient, tool: string): Promise<void> {
  const started = Date.now();
  const deep = `{"value":${nestedArrays(20_000)}}`;
  const answers = await Promise.all([1, 2, 3, 4].map(() => client.callTool(tool, deep)));
  expect(Date.now() - started).toBeLessThan(scaled(3000));
  for (const answer of answers) {
    expect(answer.error).toMatchObject({ code: -32602, message: LIMIT_MESSAGE });
  }
}

/** An ordinary call answers within 2 s. */
async function answersOrdinaryCall(client: RawClient, tool: string, args: string): Promise<void> {
  const started = Date.now();
  const answer = await client.callTool(tool, args);
  expect(Date.now() - started).toBeLessThan(scaled(2000));
  expect(answer.error).toBeUndefined();
  expect(answer.result?.isError, JSON.stringify(answer.result)).toBeUndefined();
}

describe('argument nesting depth', { timeout: scaled(30_000) }, () => {
  describe('on a Prolog tool', () => {
    let provider: PrologProvider;
    let served: Served;
    beforeAll(async () => {
      provider = await createPrologProvider({
        files: [bridgeFixture('limits.pl')],
        workers: 2,
        shutdownGraceMs: 500,
        onLog: () => undefined,
      });
      const server = createServer({ name: 'limits', version: '1.0.0', log: () => undefined });
      served = await serveAndConnect(bothEras(server.provider(provider)), 'stdio');
    });
    afterAll(async () => {
      await served.close();
      await provider.close();
    });

    it('refuses four concurrent 20,000-level calls with -32602 and keeps its workers', async () => {
      const client = new RawClient(served);
      const workers = provider.workerIds();
      await refusesFourDeepCalls(client, 'echo');
      expect(provider.workerIds()).toEqual(workers);
      await answersOrdinaryCall(client, 'echo', '{"a":[[1,2],{"b":[3]}]}');
    });

    it('accepts arguments exactly 64 levels deep', async () => {
      const client = new RawClient(served);
      // arguments, value, then 62 arrays: 64 levels.
      await answersOrdinaryCall(client, 'echo', `{"value":{"a":${nestedArrays(62)}}}`);
      const tooDeep = await client.callTool('echo', `{"value":{"a":${nestedArrays(63)}}}`);
      expect(tooDeep.error).toMatchObject({ code: -32602, message: LIMIT_MESSAGE });
    });
  });

  describe('on a TypeScript tool with a zod schema', () => {
    type Tree = Tree[];
    const tree: z.ZodType<Tree> = z.lazy(() => z.array(tree));
    let served: Served;
    beforeAll(async () => {
      const server = createServer({ name: 'limits', version: '1.0.0', log: () => undefined });
      server.tool('count', { input: z.object({ value: tree }) }, ({ value }) =>
        text(String(value.length)),
      );
      served = await serveAndConnect(bothEras(server), 'stdio');
    });
    afterAll(() => served.close());

    it('refuses four concurrent 20,000-level calls with -32602, then answers', async () => {
      const client = new RawClient(served);
      await refusesFourDeepCalls(client, 'count');
      await answersOrdinaryCall(client, 'count', '{"value":[[],[[]]]}');
    });
  });

  it('takes its limit from createServer', async () => {
    const server = createServer({
      name: 'limits',
      version: '1.0.0',
      log: () => undefined,
      limits: { maxArgumentDepth: 3 },
    }).tool('any', {}, () => text('ok'));
    const served = await serveAndConnect(bothEras(server), 'stdio');
    try {
      const client = new RawClient(served);
      await answersOrdinaryCall(client, 'any', '{"a":[[1]]}');
      const answer = await client.callTool('any', '{"a":[[[1]]]}');
      expect(answer.error).toMatchObject({
        code: -32602,
        message: 'Invalid params: arguments nest deeper than 3 levels (limit maxArgumentDepth)',
      });
    } finally {
      await served.close();
    }
  });
});
