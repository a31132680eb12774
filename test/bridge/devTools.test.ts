import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { textOf } from '../stdio/support/wire.js';
import { hostStdioParams } from './support/birds.js';
import { bridgeFixture, logtalkHomeForTests, requireBuiltHost } from './support/paths.js';

// Issue 17, done-when 4: `rondo-logtalk check`, `call` and `--watch` on real files with swipl.

logtalkHomeForTests();
const dir = mkdtempSync(join(tmpdir(), 'rondo-devtools-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function host(...args: string[]) {
  return spawnSync(process.execPath, [requireBuiltHost(), ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: process.env.PATH ?? '', LOGTALKHOME: process.env.LOGTALKHOME ?? '' },
  });
}

const BAD = `:- module(bad, []).

tools([tool(missing, nowhere, 2), tool(ok, ok, 1), tool(weird, weird, 1)]).

:- mode(ok(-atom), one).
ok(yes).

:- mode(weird(x(atom)), one).
weird(x).

input_schema(ok, {type-objekt}).

resource_templates([resource_template('x://a/{path', a, 'A', 'text/plain')]).
`;

describe('rondo-logtalk check', { timeout: scaled(60_000) }, () => {
  it('reports each problem of a provider with its file and line, and exits 1', () => {
    const bad = file('bad.pl', BAD);
    const run = host('check', bad);
    expect(run.status).toBe(1);
    expect(run.stdout.trim().split('\n')).toEqual([
      `${bad}:3: tool missing names nowhere/2, which is not defined; expected tool(missing, Predicate, Arity) naming a predicate of the provider, or a tool_call/3 clause for missing`,
      `${bad}:8: mode of weird/1: argument 1 is x(atom), which is not a mode; expected +, -, ?, @, ++ or --, with an optional type (as in +integer)`,
      expect.stringMatching(
        new RegExp(
          `^${bad}:11: tool ok: inputSchema invalid JSON Schema: .*; expected a JSON Schema object$`,
        ),
      ),
      `${bad}:13: resource template "x://a/{path" is not a URI template: "{" at 7 is never closed; expected an RFC 6570 template`,
    ]);
    expect(run.stderr).toContain(`${bad}: 4 problems`);
  });

  it('exits 0 with nothing on stdout for a sound provider, Prolog or Logtalk', () => {
    for (const sound of [bridgeFixture('locale.pl'), bridgeFixture('catalog.lgt')]) {
      const run = host('check', sound);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('no problems found');
      expect(run.status).toBe(0);
    }
  });

  it('reports a file that does not load at its line', () => {
    const run = host('check', bridgeFixture('broken.lgt'));
    expect(run.status).toBe(1);
    expect(run.stdout).toBe(
      `${bridgeFixture('broken.lgt')}:4:22: Syntax error: operator_expected\n`,
    );
  });
});

describe('rondo-logtalk call', { timeout: scaled(60_000) }, () => {
  it('runs one tool with JSON arguments and prints its result', () => {
    const run = host('call', bridgeFixture('locale.pl'), 'shout', '{"Text":"grüß"}');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      content: [{ type: 'text', text: 'Loud: GRÜß' }],
      structuredContent: { Loud: 'GRÜß' },
    });
  });

  it('exits 1 for an unknown tool, and 2 for arguments that are not a JSON object', () => {
    const unknown = host('call', bridgeFixture('locale.pl'), 'nope');
    expect(unknown.status).toBe(1);
    expect(JSON.parse(unknown.stdout)).toMatchObject({
      code: -32602,
      message: 'Unknown tool: nope',
    });
    const wrong = host('call', bridgeFixture('locale.pl'), 'shout', '[1]');
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('the tool arguments must be a JSON object');
  });
});

const versioned = (version: string, extra = '') => `:- module(live, []).

tools([tool(version, version, 1), tool(slow, slow, 1)${extra ? ', tool(added, added, 1)' : ''}]).

:- mode(version(-atom), one).
version(${version}).

:- mode(slow(-atom), one).
slow(${version}) :- sleep(1.5).
${extra}`;

describe('rondo-logtalk --watch', { timeout: scaled(60_000) }, () => {
  it('reloads on a change: the call in flight ends on the old code, clients hear of the new list', async () => {
    const live = file('live.pl', versioned('v1'));
    const client = new Client({ name: 'watch', version: '1.0.0' });
    const transport = new StdioClientTransport(hostStdioParams([live], ['--watch']));
    await client.connect(transport);
    try {
      expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
      const changed = new Promise<void>((resolve) =>
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
      );
      const inFlight = client.callTool({ name: 'slow', arguments: {} });
      await new Promise((resolve) => setTimeout(resolve, 300));
      writeFileSync(live, versioned('v2', 'added(yes).\n'));
      await changed;
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
        'version',
        'slow',
        'added',
      ]);
      expect((await client.callTool({ name: 'version', arguments: {} })).structuredContent).toEqual(
        {
          arg1: 'v2',
        },
      );
      expect(textOf(await inFlight)).toBe('arg1: v1');
    } finally {
      await client.close();
    }
  });
});
