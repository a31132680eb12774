import { createServer } from '@rondo/core';
import { text } from '@rondo/protocol';
import { describe, expect, it } from 'vitest';
import { proxy } from '../src/index.js';
import { clientOf, closeAfterTest, endpointOf, memoryUpstream } from './support.js';

// Issue 38, bounds on what upstreams send: a proxy keeps at most maxCatalogBytes of each of an
// upstream's lists (the rest left out, with a warning), and the gateway's own lists go out in
// pages bounded by bytes (maxPageBytes), whatever the upstreams' descriptors weigh.

/** An upstream of `count` tools, each with a description of `size` characters, in pages of 5. */
function heavyUpstream(count: number, size: number, huge?: number) {
  const server = createServer({ name: 'heavy', version: '1.0.0', pageSize: 5 });
  if (huge !== undefined)
    server.tool('huge', { description: 'h'.repeat(huge) }, () => text('huge'));
  for (let index = 0; index < count; index += 1) {
    server.tool(`t${index}`, { description: 'd'.repeat(size) }, () => text(`t${index}`));
  }
  return endpointOf(server, 'both');
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('the catalog budget of one upstream', () => {
  it('keeps the items that fit maxCatalogBytes, leaves out the rest and says so', async () => {
    const warnings: string[] = [];
    const provider = proxy(memoryUpstream(heavyUpstream(30, 10_000, 200_000)), {
      namespace: '',
      maxCatalogBytes: 100_000,
      onWarning: (message) => warnings.push(message),
    });
    closeAfterTest(() => provider.close());
    const tools = await provider.tools();
    // The 200 kB tool never fits; of the 10 kB ones, those that fit 100 kB in order.
    expect(tools.map((tool) => tool.name)).toEqual(
      Array.from({ length: 9 }, (_, index) => `t${index}`),
    );
    expect(bytesOf(tools)).toBeLessThanOrEqual(100_000);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^upstream "upstream": tools: 22 item\(s\) of 0\.4 MiB left out: the list passes maxCatalogBytes \(0\.1 MiB\); 9 kept/,
      ),
    ]);
  });

  it("serves the gateway's lists in pages bounded by maxPageBytes, every kept item once", async () => {
    const provider = proxy(memoryUpstream(heavyUpstream(12, 10_000)), { namespace: 'h' });
    const server = createServer({ name: 'gateway', version: '1.0.0', maxPageBytes: 25_000 });
    server.provider(provider);
    closeAfterTest(() => server.close());
    const client = await clientOf(endpointOf(server, 'both'), '2026-07-28');
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listTools(cursor);
      expect(bytesOf(page.tools)).toBeLessThanOrEqual(25_000);
      names.push(...page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(6);
    expect(names).toEqual(Array.from({ length: 12 }, (_, index) => `h_t${index}`));
    await client.close();
  });
});
