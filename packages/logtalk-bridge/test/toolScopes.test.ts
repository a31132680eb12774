import { runtimeOf } from '@rondo/core/internal';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { InsufficientScopeError, createServer } from '@rondo/core';
import { createPrologProvider, PrologProviderError } from '../src/index.js';
import { logSink, makeContext } from './helpers.js';

// Issue 28: a Prolog provider requires scopes per tool with tool_scopes/2, checked at load (each
// mistake one line at its clause) and enforced by the server like a TypeScript tool's `scopes`.

const dir = mkdtempSync(join(tmpdir(), 'rondo-tool-scopes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const OPS = `:- module(ops, []).

tools([tool(deploy, deploy, 1), tool(status, status, 1)]).

:- mode(deploy(-atom), one).
deploy(done).
:- mode(status(-atom), one).
status(green).

tool_scopes(deploy, [deploy, 'repo:write']).
`;

describe('tool_scopes/2', { timeout: scaled(30_000) }, () => {
  it('makes a call need the scopes; the tool is listed without them', async () => {
    const provider = await createPrologProvider({
      files: [write('ops.pl', OPS)],
      workers: 1,
      onLog: logSink().onLog,
    });
    const server = createServer({ name: 'ops', version: '1.0.0' }).provider(provider);
    try {
      await runtimeOf(server).ready();
      expect(provider.callScopes?.('tool', 'deploy')).toEqual(['deploy', 'repo:write']);
      expect(provider.callScopes?.('tool', 'status')).toBeUndefined();
      const listed = runtimeOf(server).catalog.tools.map((entry) => entry.definition);
      expect(listed.map((tool) => tool.name)).toEqual(['deploy', 'status']);
      expect(listed[0]).not.toHaveProperty('requiredScopes');
      const narrow = makeContext({ principal: { id: 'bob', scopes: ['deploy'] } });
      const refusal = await runtimeOf(server)
        .callTool('deploy', {}, narrow)
        .catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(InsufficientScopeError);
      expect((refusal as InsufficientScopeError).required).toEqual(['deploy', 'repo:write']);
      const wide = makeContext({ principal: { id: 'ada', scopes: ['deploy', 'repo:write'] } });
      expect(await runtimeOf(server).callTool('deploy', {}, wide)).toMatchObject({
        kind: 'complete',
      });
      expect(await runtimeOf(server).callTool('status', {}, narrow)).toMatchObject({
        kind: 'complete',
      });
    } finally {
      await server.close();
    }
  });

  it('refuses scopes that are not a list of scope atoms, or name an unlisted tool, at their clause', async () => {
    const path = write(
      'badScopes.pl',
      OPS.replace(
        "tool_scopes(deploy, [deploy, 'repo:write']).",
        "tool_scopes(deploy, 'deploy admin').\ntool_scopes(gone, [x]).",
      ),
    );
    const failure = await createPrologProvider({
      files: [path],
      workers: 1,
      onLog: logSink().onLog,
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PrologProviderError);
    const { lines } = failure as PrologProviderError;
    expect(lines).toEqual([
      `${path}:10: tool_scopes(deploy, 'deploy admin') gives scopes that are not a list of scope atoms; expected a list of atoms without spaces, quotes or backslashes, as in [deploy, 'repo:write']`,
      `${path}:10: tool_scopes(gone, [x]) names a tool that tools/1 does not list; expected the name of a listed tool`,
    ]);
  });
});
