import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as core from '@rondo/core';
import * as protocol from '@rondo/protocol';
import * as facade from '@rondo/server';

/** Every function `packages/protocol/src/constructors.ts` exports: the vocabulary constructors. */
const constructors = [
  ...readFileSync(new URL('../../protocol/src/constructors.ts', import.meta.url), 'utf8').matchAll(
    /^export function (\w+)/gm,
  ),
].map((match) => match[1]!);

describe('the one import', () => {
  it('finds the vocabulary constructors', () => {
    expect(constructors).toEqual(expect.arrayContaining(['text', 'structured', 'inputRequired']));
  });

  it.each(constructors)(
    're-exports %s from @rondo/protocol, in @rondo/server and @rondo/core',
    (name) => {
      const original = (protocol as Record<string, unknown>)[name];
      expect(original).toBeTypeOf('function');
      expect((facade as Record<string, unknown>)[name]).toBe(original);
      expect((core as Record<string, unknown>)[name]).toBe(original);
    },
  );

  it('re-exports the builder and the wire errors as they are', () => {
    expect(facade.createServer).toBe(core.createServer);
    expect(facade.RondoServer).toBe(core.RondoServer);
    expect(facade.McpError).toBe(protocol.McpError);
    expect(facade.ErrorCode).toBe(protocol.ErrorCode);
  });
});
