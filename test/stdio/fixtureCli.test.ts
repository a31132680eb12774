import { describe, expect, it, vi } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { RawFixture, modernMeta } from './support/fixture.js';

// The fixture CLI's life on stdio: diagnostics on stderr only, exit 0 at end of input once open
// work is answered, and exit 0 on SIGTERM.

describe('rondo-fixture --transport stdio', { timeout: scaled(30_000) }, () => {
  it('answers work still running when stdin ends, then exits 0', async () => {
    const fixture = new RawFixture();
    fixture.send({
      jsonrpc: '2.0',
      id: 'slow',
      method: 'tools/call',
      params: { _meta: modernMeta(), name: 'test_slow_tool', arguments: { ms: 300 } },
    });
    expect(await fixture.end()).toBe(0);
    expect(fixture.lines).toMatchObject([
      { id: 'slow', result: { content: [{ text: 'Slept 300 ms' }] } },
    ]);
    expect(fixture.stderr).toContain('rondo-fixture: serving stdio');
  });

  it('writes nothing on stdout when it gets no input', async () => {
    const fixture = new RawFixture();
    expect(await fixture.end()).toBe(0);
    expect(fixture.lines).toEqual([]);
  });

  it('stops on SIGTERM, aborting open work, and exits 0', async () => {
    const fixture = new RawFixture();
    try {
      fixture.send({
        jsonrpc: '2.0',
        id: 'forever',
        method: 'tools/call',
        params: { _meta: modernMeta(), name: 'test_slow_tool', arguments: { ms: 60_000 } },
      });
      await vi.waitFor(() => expect(fixture.stderr).toContain('serving stdio'), {
        timeout: scaled(10_000),
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      fixture.child.kill('SIGTERM');
      expect(await fixture.exited).toBe(0);
    } finally {
      fixture.kill();
    }
  });
});
