/** The provider files of a Prolog project: the SWI-Prolog module and the test that serves it. */
export function prologFiles(name: string): Record<string, string> {
  return { 'server.pl': moduleSource(name), 'src/server.test.ts': TEST_SOURCE };
}

/** The module name a package name gives: a plain Prolog atom (`my-server` gives `my_server`). */
export function moduleNameOf(name: string): string {
  const atom = name.toLowerCase().replace(/[^a-z0-9_]+/g, '_');
  return /^[a-z]/.test(atom) ? atom : `mcp_${atom}`;
}

/** A Prolog-quoted atom. */
function quoted(value: string): string {
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

function moduleSource(name: string): string {
  return `% ${name}: an MCP provider in SWI-Prolog, served by rondo-logtalk (see @rondo/logtalk-bridge).
:- module(${moduleNameOf(name)}, []).

capabilities([prompts, resources]).

% A tool: add/3 is called with the JSON arguments A and B bound, and Sum comes back.
tools([tool(add, add, 3)]).

:- mode(add(+integer, +integer, -integer), one).
:- info(add/3, [comment is 'Adds two integers.', argnames is ['A', 'B', 'Sum']]).
add(A, B, Sum) :- Sum is A + B.

% A prompt with one required argument.
prompts([prompt(greeting, 'Asks for a short greeting', [argument(name, 'Who to greet', true)])]).

prompt_get(greeting, Args, messages([message(user, text(Text))])) :-
    memberchk(name-Name, Args),
    format(atom(Text), 'Write a short greeting for ~w.', [Name]).

% A resource.
resources([resource('info://about', about, 'What this server is', 'text/plain')]).

resource_read('info://about', _,
    contents([text_content('info://about', 'text/plain', ${quoted(`${name}, made with create-rondo.`)})])).
`;
}

const TEST_SOURCE = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@rondo/client';
import { stdioTransport } from '@rondo/client/node';

const root = fileURLToPath(new URL('..', import.meta.url));

test('the tool, the prompt and the resource answer an MCP client', async () => {
  const command = join(root, 'node_modules', '.bin', 'rondo-logtalk');
  const client = new Client({
    transport: stdioTransport({ command, args: [join(root, 'server.pl')] }),
  });
  await client.connect();
  try {
    const sum = await client.callTool('add', { A: 2, B: 3 });
    assert.deepEqual(sum.structuredContent, { Sum: 5 });
    const prompt = await client.getPrompt('greeting', { name: 'Ada' });
    assert.match(JSON.stringify(prompt.messages), /greeting for Ada/);
    const about = await client.readResource('info://about');
    assert.match(JSON.stringify(about.contents), /made with create-rondo/);
  } finally {
    await client.close();
  }
});
`;
