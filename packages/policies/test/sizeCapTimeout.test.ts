import { afterEach, describe, expect, it } from 'vitest';
import { results, text } from '@rondo/server';
import { callTimeout, cutText, responseSizeCap } from '../src/index.js';
import { refusal } from '@rondo/test-support/refusal';
import { startPolicyServer, type PolicyServer } from './support.js';

let running: PolicyServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('responseSizeCap', () => {
  it('cuts text to fit with a marker, the first text kept whole when it can be', async () => {
    running = await startPolicyServer((server) =>
      server
        .use(responseSizeCap({ maxChars: 400, marker: '…[cut]' }))
        .tool('big', {}, () => results([text('head'), text('x'.repeat(5000))]))
        .tool('small', {}, () => text('fine')),
    );
    const client = await running.client('ada');
    const big = await client.callTool('big');
    const texts = big.content.map((item) => (item.type === 'text' ? item.text : ''));
    expect(texts[0]).toBe('head');
    expect(texts[1]).toMatch(/^x+…\[cut\]$/);
    expect(texts[1]!.length).toBeLessThan(400);
    expect((await client.callTool('small')).content[0]).toMatchObject({ text: 'fine' });
  });

  it('refuses an answer too large when told to, naming both sizes', async () => {
    running = await startPolicyServer((server) =>
      server
        .use(responseSizeCap({ maxChars: 100, mode: 'refuse' }))
        .tool('big', {}, () => text('y'.repeat(1000))),
    );
    const refused = await refusal((await running.client('ada')).callTool('big'));
    expect(refused.code).toBe(-32603);
    expect(refused.message).toMatch(
      /^Response too large: the answer to tools\/call has \d+ characters, the limit is 100$/,
    );
    expect(refused.data.maxChars).toBe(100);
  });

  it('cutText gives up on what text cannot make fit', () => {
    const image = { kind: 'image', data: 'z'.repeat(500), mimeType: 'image/png' };
    expect(cutText({ kind: 'complete', result: image }, 100, '…')).toBeUndefined();
    const escaped = { kind: 'text', text: '"'.repeat(300) };
    const cut = cutText(escaped, 120, '…') as { text: string };
    expect(JSON.stringify(cut).length).toBeLessThanOrEqual(120);
  });
});

describe('callTimeout', () => {
  it("aborts the handler's signal and answers -32603 with timeoutMs; other tools use their own time", async () => {
    let aborted: unknown;
    running = await startPolicyServer((server) =>
      server
        .use(callTimeout({ ms: 5_000, tools: { stuck: 150 } }))
        .tool(
          'stuck',
          {},
          (_args, ctx) =>
            new Promise(() => {
              ctx.signal.addEventListener('abort', () => (aborted = ctx.signal.reason));
            }),
        )
        .tool('quick', {}, () => text('done')),
    );
    const client = await running.client('ada', '2025-11-25');
    const refused = await refusal(client.callTool('stuck'));
    expect(refused.code).toBe(-32603);
    expect(refused.message).toBe('Timed out: tool "stuck" did not finish within 150 ms');
    expect(refused.data).toEqual({ timeoutMs: 150 });
    expect(aborted).toMatchObject({ message: refused.message });
    expect((await client.callTool('quick')).content[0]).toMatchObject({ text: 'done' });
  });
});
