import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from '@rondo/core';
import { structured, text } from '@rondo/protocol';
import { LegacyTestClient, checkAndCloseClients } from './support/legacyClient.js';

afterEach(checkAndCloseClients);

const output = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };

function server() {
  return createServer({ name: 's', version: '1', log: () => {} })
    .tool('list', { description: 'structured array' }, () => structured([1, 2, 3]))
    .tool('good', { description: 'matches', output }, () => structured({ n: 1 }))
    .tool('wrong', { description: 'mismatch', output }, () => structured({ n: 'one' }))
    .tool('plain', { description: 'no structured content', output }, () => text('just text'))
    .tool('failing', { description: 'error with schema', output }, () => ({
      kind: 'error',
      text: 'it broke',
    }));
}

describe('tool results on the legacy wire', () => {
  it('turns non-object structured content into an error result', async () => {
    const client = await LegacyTestClient.open(server());
    const result = await client.call('tools/call', { name: 'list' });
    expect(result).toMatchObject({ isError: true });
    expect(result.structuredContent).toBeUndefined();
    expect(JSON.stringify(result)).toContain('not a JSON object');
  });

  it('checks structured content against the outputSchema', async () => {
    const client = await LegacyTestClient.open(server());
    expect(await client.call('tools/call', { name: 'good' })).toEqual({
      content: [{ type: 'text', text: '{"n":1}' }],
      structuredContent: { n: 1 },
    });
    const wrong = await client.call('tools/call', { name: 'wrong' });
    expect(wrong).toMatchObject({ isError: true });
    expect(JSON.stringify(wrong)).toContain('does not match its outputSchema');
    expect(JSON.stringify(await client.call('tools/call', { name: 'plain' }))).toContain(
      'returned no structured content',
    );
  });

  it('passes error results of tools with an outputSchema through', async () => {
    const client = await LegacyTestClient.open(server());
    expect(await client.call('tools/call', { name: 'failing' })).toEqual({
      content: [{ type: 'text', text: 'it broke' }],
      isError: true,
    });
  });
});
