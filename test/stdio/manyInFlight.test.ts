import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { RawFixture, modernMeta } from './support/fixture.js';
import { WireValidator } from '@rondo/test-support/specSchemas';
import type { WireMessage } from './support/wire.js';

// Issue 3, done-when 4: 1,000 tools/call requests written to stdin at once all get correct
// responses, matched by id. Each sleeps a different time, so answers come back out of order.

const COUNT = 1000;
const sleepFor = (index: number) => (index * 7) % 40;

describe('many requests in flight on stdio', { timeout: scaled(90_000) }, () => {
  it('answers 1,000 tools/call requests written at once, each matched by id', async () => {
    const fixture = new RawFixture();
    try {
      const meta = modernMeta();
      const batch = Array.from({ length: COUNT }, (_, index) =>
        JSON.stringify({
          jsonrpc: '2.0',
          id: `call-${index}`,
          method: 'tools/call',
          params: { _meta: meta, name: 'test_slow_tool', arguments: { ms: sleepFor(index) } },
        }),
      );
      // One write: the fixture sees every request before it has answered any.
      fixture.send(batch.join('\n'));
      for (const line of batch) fixture.sent.push(JSON.parse(line) as WireMessage);
      await fixture.waitFor(() => fixture.lines.length >= COUNT, 60_000);

      const answers = new Map(fixture.lines.map((line) => [line.id, line]));
      expect(answers.size).toBe(COUNT);
      for (let index = 0; index < COUNT; index += 1) {
        const answer = answers.get(`call-${index}`);
        expect(answer?.result?.content).toEqual([
          { type: 'text', text: `Slept ${sleepFor(index)} ms` },
        ]);
      }
      const order = fixture.lines.map((line) => Number(String(line.id).slice(5)));
      expect(order).not.toEqual([...order].sort((a, b) => a - b));

      expect(await fixture.end()).toBe(0);
      const validator = WireValidator.load('2026-07-28');
      if (validator) expect(validator.problems(fixture.lines, fixture.sent)).toEqual([]);
    } finally {
      fixture.kill();
    }
  });
});
