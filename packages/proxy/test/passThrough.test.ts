import { RequestAbortedError } from '@rondo/client';
import { createServer } from '@rondo/core';
import { ErrorCode, formElicitation, inputRequest, inputRequired, text } from '@rondo/protocol';
import { describe, expect, it, vi } from 'vitest';
import type { ProxyOptions } from '../src/index.js';
import { clientOf, endpointOf, memoryUpstream, NAME_FORM, passingGateway } from './support.js';

/** What the modern upstream saw of the calls that reached it. */
interface Seen {
  requestStates: unknown[];
  aborted: boolean;
}

/** A modern-only upstream: a round-hook tool, a slow tool with progress and a log line, a failing one. */
function modernUpstream(seen: Seen) {
  const server = createServer({ name: 'modern-upstream', version: '1.0.0' })
    .tool('greet', {}, (_args, ctx) => {
      seen.requestStates.push(ctx.requestState);
      const answer = ctx.inputResponses.name;
      if (answer?.kind !== 'accept') {
        return inputRequired([inputRequest('name', formElicitation('Your name?', NAME_FORM))], {
          asked: 1,
        });
      }
      return text(`Hello, ${answer.content.name as string}!`);
    })
    .tool('slow', {}, async (_args, ctx) => {
      ctx.progress(1, 2, 'half way');
      ctx.log('info', 'working');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        ctx.signal.addEventListener('abort', () => {
          seen.aborted = true;
          clearTimeout(timer);
          resolve();
        });
      });
      return text('done');
    })
    .tool('fail', {}, () => {
      throw new Error('broken on purpose');
    });
  return endpointOf(server, 'modern');
}

/** A gateway over the modern upstream with the pass-through path in front of its endpoint. */
function modernGateway(seen: Seen, options: ProxyOptions = {}, middleware = false) {
  return passingGateway(
    memoryUpstream(modernUpstream(seen)),
    { namespace: 'm', ...options },
    {
      middleware,
    },
  );
}

describe('withPassThrough', () => {
  it('passes a modern call through: the upstream input_required round reaches the client, and its requestState comes back to it', async () => {
    const seen: Seen = { requestStates: [], aborted: false };
    const { endpoint, passed, provider } = modernGateway(seen);
    const client = await clientOf(endpoint, '2026-07-28', {
      elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
    });
    const result = await client.callTool('m_greet');
    expect(result.content[0]).toMatchObject({ text: 'Hello, Ada!' });
    // Both rounds passed through; the retry carried the upstream's state, which the gateway never held.
    expect(passed).toHaveBeenCalledTimes(2);
    expect(passed.mock.calls[0]?.[2]).toMatchObject({ name: 'greet' });
    expect(seen.requestStates).toEqual([undefined, { asked: 1 }]);
    expect(provider.suspendedCalls).toBe(0);
    await client.close();
  });

  it('forwards progress with the caller token and the log line of the only call running', async () => {
    const seen: Seen = { requestStates: [], aborted: false };
    const { endpoint, passed } = modernGateway(seen);
    const client = await clientOf(endpoint, '2026-07-28');
    await client.setLogLevel('info');
    const logs: unknown[] = [];
    client.on('log', (params) => logs.push(params.data));
    const progress: unknown[] = [];
    const result = await client.callTool('m_slow', {}, { onProgress: (u) => progress.push(u) });
    expect(result.content[0]).toMatchObject({ text: 'done' });
    expect(passed).toHaveBeenCalledTimes(1);
    expect(progress).toEqual([{ progress: 1, total: 2, message: 'half way' }]);
    expect(logs).toEqual(['working']);
    await client.close();
  });

  it('cancels the upstream call when the caller aborts', async () => {
    const seen: Seen = { requestStates: [], aborted: false };
    const { endpoint, passed } = modernGateway(seen);
    const client = await clientOf(endpoint, '2026-07-28');
    const controller = new AbortController();
    const call = client.callTool('m_slow', {}, { signal: controller.signal });
    await vi.waitFor(() => expect(passed).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(RequestAbortedError);
    await vi.waitFor(() => expect(seen.aborted).toBe(true));
    await client.close();
  });

  it('answers an upstream failure with its error, and a full concurrency gate with a precise refusal', async () => {
    const seen: Seen = { requestStates: [], aborted: false };
    const { endpoint } = modernGateway(seen, { maxConcurrent: 1, maxQueued: 0 });
    const client = await clientOf(endpoint, '2026-07-28');
    const failed = await client.callTool('m_fail');
    expect(failed.isError).toBe(true);
    expect(failed.content[0]).toMatchObject({ text: expect.stringContaining('broken on purpose') });
    const running = client.callTool('m_slow');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(client.callTool('m_slow')).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: 'Upstream "m" is busy: 1 calls running and 0 waiting',
    });
    await running;
    await client.close();
  });

  it('leaves a call to the pipeline when the server has middleware, or the caller is legacy', async () => {
    const seen: Seen = { requestStates: [], aborted: false };
    const { endpoint, passed } = modernGateway(seen, {}, true);
    const modern = await clientOf(endpoint, '2026-07-28', {
      elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
    });
    expect((await modern.callTool('m_greet')).content[0]).toMatchObject({ text: 'Hello, Ada!' });
    // The translating path re-issued the round with the upstream's state it kept.
    expect(passed).not.toHaveBeenCalled();
    await modern.close();

    const plain = modernGateway(seen);
    const legacy = await clientOf(plain.endpoint, '2025-11-25', {
      elicitation: () => ({ action: 'accept', content: { name: 'Grace' } }),
    });
    expect((await legacy.callTool('m_greet')).content[0]).toMatchObject({
      text: 'Hello, Grace!',
    });
    expect(plain.passed).not.toHaveBeenCalled();
    await legacy.close();
  });
});
