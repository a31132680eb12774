import { createServer } from '@rondo/core';
import { text } from '@rondo/protocol';
import { describe, expect, it } from 'vitest';
import { proxy } from '../src/index.js';
import { endpointOf, memoryUpstream } from './support.js';

// A desktop host that quits closes the gateway while its upstreams' lists may still be read: the
// shutdown is not news, so nothing is warned about the reads it cut short.
describe('a proxy that closes', () => {
  it('warns about nothing its own close cut short', async () => {
    const upstream = createServer({ name: 'calm', version: '1.0.0' }).tool('echo', {}, () =>
      text('echo'),
    );
    const warnings: string[] = [];
    const provider = proxy(memoryUpstream(endpointOf(upstream, 'both')), {
      name: 'calm',
      onWarning: (line) => warnings.push(line),
    });
    await provider.upstream.start();
    expect((await provider.tools()).map((tool) => tool.name)).toEqual(['echo']);
    const closing = provider.close();
    // Reads that arrive while (and after) it closes answer the lists as last read, silently.
    const lists = await Promise.all([provider.tools(), provider.prompts(), provider.resources()]);
    await closing;
    const after = await Promise.all([provider.tools(), provider.prompts(), provider.resources()]);
    expect(lists[0].map((tool) => tool.name)).toEqual(['echo']);
    expect(after[0].map((tool) => tool.name)).toEqual(['echo']);
    expect(warnings).toEqual([]);
  });
});
