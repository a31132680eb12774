import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@rondo/protocol';
import { ConfigurationError, createServer } from '@rondo/core';
import { RequestStateSealer } from '@rondo/core/internal';

const binding = { method: 'tools/call', identity: { name: 'wizard', arguments: { size: 2 } } };

describe('RequestStateSealer', () => {
  it('opens what it sealed, state and carry unchanged', async () => {
    const sealer = new RequestStateSealer({ key: 'k-key-0123456789abcdef0123456789abcdef' });
    const token = await sealer.seal(binding, {
      state: { step: 2, names: ['ä', '🦜'] },
      carry: { round: 2 },
    });
    expect(await sealer.open(token, binding)).toEqual({
      state: { step: 2, names: ['ä', '🦜'] },
      carry: { round: 2 },
    });
  });

  it('keeps an absent provider state absent', async () => {
    const sealer = new RequestStateSealer({ key: 'k-key-0123456789abcdef0123456789abcdef' });
    const token = await sealer.seal(binding, { state: undefined, carry: null });
    expect((await sealer.open(token, binding)).state).toBeUndefined();
  });

  it('rejects a tampered requestState', async () => {
    const sealer = new RequestStateSealer({ key: 'k-key-0123456789abcdef0123456789abcdef' });
    const token = await sealer.seal(binding, { state: 1, carry: null });
    const flipped = token.slice(0, 5) + (token[5] === 'A' ? 'B' : 'A') + token.slice(6);
    for (const bad of [flipped, `${token}-TAMPERED`, 'garbage', '', 42, null]) {
      await expect(sealer.open(bad, binding)).rejects.toThrow(
        expect.objectContaining({ code: ErrorCode.InvalidParams }),
      );
    }
  });

  it('rejects an expired requestState', async () => {
    let now = 1_000;
    const sealer = new RequestStateSealer({
      key: 'k-key-0123456789abcdef0123456789abcdef',
      ttlMs: 100,
      now: () => now,
    });
    const token = await sealer.seal(binding, { state: 1, carry: null });
    now += 101;
    await expect(sealer.open(token, binding)).rejects.toThrow('Invalid or expired requestState');
  });

  it('rejects a state replayed with other arguments, another method or another principal', async () => {
    const sealer = new RequestStateSealer({ key: 'k-key-0123456789abcdef0123456789abcdef' });
    const token = await sealer.seal({ ...binding, principal: 'alice' }, { state: 1, carry: null });
    const other = [
      { ...binding, principal: 'alice', identity: { name: 'wizard', arguments: { size: 3 } } },
      { ...binding, principal: 'alice', method: 'prompts/get' },
      { ...binding, principal: 'bob' },
      binding,
    ];
    for (const b of other)
      await expect(sealer.open(token, b)).rejects.toThrow('Invalid or expired requestState');
  });

  it('binds the identity independently of key order', async () => {
    const sealer = new RequestStateSealer({ key: 'k-key-0123456789abcdef0123456789abcdef' });
    const token = await sealer.seal(
      { method: 'm', identity: { a: 1, b: { c: 2, d: 3 } } },
      { state: 1, carry: null },
    );
    const opened = await sealer.open(token, {
      method: 'm',
      identity: { b: { d: 3, c: 2 }, a: 1 },
    });
    expect(opened.state).toBe(1);
  });

  // Issue 29: a retry reaching another process failed with no hint why.
  it('refuses states sealed with another key, saying keys differ between processes and the fix', async () => {
    const token = await new RequestStateSealer({
      key: 'one-key-0123456789abcdef0123456789abcdef',
    }).seal(binding, { state: 1, carry: null });
    const other = new RequestStateSealer({ key: 'two-key-0123456789abcdef0123456789abcdef' });
    await expect(other.open(token, binding)).rejects.toThrow(
      "Invalid or expired requestState: it was not sealed with this server's keys. Another process (a replica, or this one before a restart) sealed it with different keys, or it was altered: give every process the same RONDO_STATE_KEY (or requestState.keys); see docs/scale-out.md",
    );
  });

  it('refuses an expired state without the hint about keys', async () => {
    let now = 1_000;
    const sealer = new RequestStateSealer({
      key: 'one-key-0123456789abcdef0123456789abcdef',
      ttlMs: 10,
      now: () => now,
    });
    const token = await sealer.seal(binding, { state: 1, carry: null });
    now += 11;
    const refusal = await sealer.open(token, binding).catch((failure: Error) => failure);
    expect((refusal as Error).message).toBe('Invalid or expired requestState');
  });

  it('invents a key quietly, and warns once at the first seal after expectSeveralProcesses', async () => {
    const previous = process.env.RONDO_STATE_KEY;
    delete process.env.RONDO_STATE_KEY;
    const warnings: string[] = [];
    const sealer = new RequestStateSealer({ warn: (m) => warnings.push(m) });
    if (previous !== undefined) process.env.RONDO_STATE_KEY = previous;
    expect(sealer.randomKey).toBe(true);
    await sealer.seal(binding, { state: 1, carry: null });
    expect(warnings).toEqual([]);
    sealer.expectSeveralProcesses();
    await sealer.seal(binding, { state: 1, carry: null });
    await sealer.seal(binding, { state: 2, carry: null });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/RONDO_STATE_KEY/);
  });

  it('never warns with a configured key', async () => {
    const warnings: string[] = [];
    const sealer = new RequestStateSealer({
      key: 'configured-key-0123456789abcdef0123456789',
      warn: (m) => warnings.push(m),
    });
    sealer.expectSeveralProcesses();
    await sealer.seal(binding, { state: 1, carry: null });
    expect(sealer.randomKey).toBe(false);
    expect(warnings).toEqual([]);
  });

  it('refuses a key shorter than 32 bytes, from the option or RONDO_STATE_KEY', () => {
    expect(() => new RequestStateSealer({ key: 'x'.repeat(31) })).toThrow(ConfigurationError);
    expect(() => new RequestStateSealer({ key: new Uint8Array(16) })).toThrow(
      'The requestState key is 16 bytes long; a requestState key needs at least 32 bytes',
    );
    const previous = process.env.RONDO_STATE_KEY;
    process.env.RONDO_STATE_KEY = 'short';
    try {
      expect(() => new RequestStateSealer()).toThrow(
        'RONDO_STATE_KEY is 5 bytes long; a requestState key needs at least 32 bytes',
      );
      expect(() => createServer({ name: 's', version: '1' })).toThrow(ConfigurationError);
    } finally {
      if (previous === undefined) delete process.env.RONDO_STATE_KEY;
      else process.env.RONDO_STATE_KEY = previous;
    }
    expect(new RequestStateSealer({ key: 'x'.repeat(32) })).toBeInstanceOf(RequestStateSealer);
  });
});
