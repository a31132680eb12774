import { describe, expect, it } from 'vitest';
import * as elsewhere from '../src/noNetwork.js';
import * as onNode from '../src/nodeNetwork.js';

// `#callbackNetwork`: Node's resolver and poster under the `node` condition, and outside Node a
// stand-in that says callbacks can't be reached, so a Worker bundle carries no Node built-in.

describe('the callback network of each runtime', () => {
  it('on Node, resolves a host to its addresses', async () => {
    expect(onNode.CALLBACKS_REACHABLE).toBe(true);
    const addresses = await onNode.resolveAll('localhost');
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.every(({ family }) => family === 4 || family === 6)).toBe(true);
  });

  it('elsewhere, says callbacks are unreachable and never resolves or posts', async () => {
    expect(elsewhere.CALLBACKS_REACHABLE).toBe(false);
    await expect(elsewhere.resolveAll('localhost')).rejects.toThrow(/on Node only/);
    const target = {
      url: new URL('https://example.test/hook'),
      address: { address: '93.184.216.34', family: 4 as const },
    };
    await expect(elsewhere.postCallback(target, '{}', {}, { timeoutMs: 1000 })).rejects.toThrow(
      /on Node only/,
    );
  });
});
