import { createEndpoint, createServer } from '@rondo/core';
import { modernEra } from '@rondo/adapter-2026';
import { text } from '@rondo/protocol';
import { createFetchHandler, type FetchHandler } from '@rondo/transport-http/fetch';
import { mcpHono } from '@rondo/transport-http/hono';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { tasks } from '@rondo/tasks';
import { WITH_TASKS, type Json } from './taskClient.js';

// A Worker stops a request's pending work once its response is done: the fetch handler hands a
// task's run, which outlives the tools/call response that created it, to the request's waitUntil.

const handlers: FetchHandler[] = [];
afterEach(async () => {
  for (const handler of handlers.splice(0)) await handler.close();
});

function serve(): { handler: FetchHandler; release: () => void } {
  const server = createServer({ name: 'wait-until', version: '1.0.0', log: () => undefined }).use(
    tasks(),
  );
  let release: () => void = () => undefined;
  server.tool('finish_later', { task: 'optional' }, async () => {
    await new Promise<void>((resolve) => (release = resolve));
    return text('finished');
  });
  server.tool('quick', {}, () => text('done'));
  const handler = createFetchHandler(createEndpoint(server, { modern: modernEra() }));
  handlers.push(handler);
  return { handler, release: () => release() };
}

/** A modern request as a web `Request`, the way a Worker receives it. */
function mcpRequest(id: number, method: string, params: Json, mcpName: string): Request {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': WITH_TASKS,
  };
  return new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      'mcp-name': mcpName,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }),
  });
}

async function resultOf(response: Response): Promise<Json> {
  expect(response.status).toBe(200);
  const body = (await response.json()) as { result?: Json; error?: unknown };
  expect(body.error).toBeUndefined();
  return body.result!;
}

/** Whether `promise` has settled, read after the microtasks queued so far. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 20));
  return done;
}

describe('createFetchHandler with a per-request waitUntil', () => {
  it("hands a task's run to the waitUntil of the request that created it", async () => {
    const { handler, release } = serve();
    const kept: Promise<unknown>[] = [];
    const waitUntil = (work: Promise<unknown>) => void kept.push(work);
    const call = mcpRequest(
      1,
      'tools/call',
      { name: 'finish_later', arguments: {} },
      'finish_later',
    );
    const created = await resultOf(await handler(call, { waitUntil }));
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    // The response is done; the run is still going, and the runtime was told to keep it.
    expect(kept).toHaveLength(1);
    expect(await settled(kept[0]!)).toBe(false);

    release();
    await kept[0];
    const taskId = String(created.taskId);
    const got = await resultOf(await handler(mcpRequest(2, 'tasks/get', { taskId }, taskId)));
    expect(got).toMatchObject({ status: 'completed', result: { content: [{ text: 'finished' }] } });
  });

  it('hands nothing over for a call answered within its response', async () => {
    const { handler } = serve();
    const kept: Promise<unknown>[] = [];
    const call = mcpRequest(1, 'tools/call', { name: 'quick', arguments: {} }, 'quick');
    const result = await resultOf(await handler(call, { waitUntil: (work) => kept.push(work) }));
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'done' }] });
    expect(kept).toEqual([]);
  });
});

describe('mcpHono on a runtime with an execution context', () => {
  it("hands a task's run to the Worker's ctx.waitUntil that Hono was given", async () => {
    const server = createServer({ name: 'hono-wait', version: '1.0.0', log: () => undefined }).use(
      tasks(),
    );
    let release: () => void = () => undefined;
    server.tool('finish_later', { task: 'optional' }, async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return text('finished');
    });
    const mcp = mcpHono(createEndpoint(server, { modern: modernEra() }));
    const app = new Hono().use(mcp);
    const kept: Promise<unknown>[] = [];
    // What a Worker hands `app.fetch` as its third argument.
    const executionCtx = {
      waitUntil: (work: Promise<unknown>) => void kept.push(work),
      passThroughOnException: () => undefined,
      props: {},
    };
    try {
      const call = mcpRequest(
        1,
        'tools/call',
        { name: 'finish_later', arguments: {} },
        'finish_later',
      );
      const created = await resultOf(await app.fetch(call, {}, executionCtx));
      expect(created).toMatchObject({ resultType: 'task', status: 'working' });
      expect(kept).toHaveLength(1);
      expect(await settled(kept[0]!)).toBe(false);
      release();
      expect(await settled(kept[0]!)).toBe(true);
      // Without an execution context (Node) Hono's getter throws; the call is served all the same.
      const plain = await app.fetch(
        mcpRequest(2, 'tools/call', { name: 'finish_later', arguments: {} }, 'finish_later'),
      );
      expect(await resultOf(plain)).toMatchObject({ resultType: 'task' });
      release();
    } finally {
      await mcp.close();
    }
  });
});
