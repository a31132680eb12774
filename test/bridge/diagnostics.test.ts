import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { hostStdioParams } from './support/birds.js';
import { requireBuiltHost } from './support/paths.js';

// Issue 19, done-when 2: each Prolog mistake is one line at start, `file:line: what was found;
// expected <shape>`, the same from serving and from `rondo-logtalk check`, never a stack trace.

const dir = mkdtempSync(join(tmpdir(), 'rondo-diagnostics-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `rondo-logtalk ARGS` with stdin closed at once (a server that started would then stop, 0). */
function host(args: string[], cwd = dir): Promise<Run> {
  const child = spawn(process.execPath, [requireBuiltHost(), ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk: Buffer) => (stderr += String(chunk)));
  const deadline = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.once('close', (status) => {
      clearTimeout(deadline);
      resolve({ status, stdout, stderr });
    }),
  );
}

/**
 * Serves FILE (two workers, as on a small machine) and checks it; both must exit 1 with the
 * same single line: `check` on stdout, serving on stderr after its `rondo-logtalk: ` tag.
 */
async function expectOneLine(path: string, cwd = dir): Promise<string> {
  const [serving, check] = await Promise.all([
    host(['--workers', '2', path], cwd),
    host(['check', path], cwd),
  ]);
  for (const run of [serving, check]) {
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  }
  const lines = check.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  const [line] = lines as [string];
  expect(serving.stdout).toBe('');
  expect(serving.stderr.trim().split('\n')).toEqual([`rondo-logtalk: ${line}`]);
  return line;
}

describe('Prolog mistakes at start', { timeout: scaled(60_000) }, () => {
  it('a tool naming a predicate that does not exist', async () => {
    const path = file(
      'missing.pl',
      `:- module(missing, []).

tools([tool(add, add, 3), tool(gone, nowhere, 2)]).

:- mode(add(+integer, +integer, -integer), one).
add(A, B, C) :- C is A + B.
`,
    );
    expect(await expectOneLine(path)).toBe(
      `${path}:3: tool gone names nowhere/2, which is not defined; expected tool(gone, Predicate, Arity) naming a predicate of the provider, or a tool_call/3 clause for gone`,
    );
  });

  it('a tool naming its predicate with another arity', async () => {
    const path = file(
      'arity.pl',
      `:- module(arity, []).

tools([tool(add, add, 2)]).

:- mode(add(+integer, +integer, -integer), one).
add(A, B, C) :- C is A + B.
`,
    );
    expect(await expectOneLine(path)).toBe(
      `${path}:3: tool add names add/2, which is not defined (add/3 is); expected tool(add, add, 3)`,
    );
  });

  it('a mode with an unknown type, naming the known ones', async () => {
    const path = file(
      'typo.pl',
      `:- module(typo, []).

tools([tool(add, add, 3)]).

:- mode(add(+intger, +integer, -integer), one).
add(A, B, C) :- C is A + B.
`,
    );
    const line = await expectOneLine(path);
    expect(line).toMatch(
      new RegExp(
        `^${path}:5: mode of add/3: argument 1 has the unknown type intger; expected one of integer, .*, float, .*, list\\(T\\), `,
      ),
    );
  });

  it('a malformed prompt descriptor', async () => {
    const path = file(
      'prompt.pl',
      `:- module(prompt, []).

prompts([prompt(greet, 'Greets')]).
prompt_get(greet, _, messages([])).
`,
    );
    expect(await expectOneLine(path)).toBe(
      `${path}:3: prompts/1 lists prompt(greet,'Greets'), which is not a prompt descriptor; expected prompt(Name, Description, Arguments) or prompt(Name, Title, Description, Arguments)`,
    );
  });

  it('a malformed prompt argument and a malformed resource descriptor', async () => {
    const argument = file(
      'argument.pl',
      `:- module(argument, []).

prompts([prompt(greet, 'Greets', [argument(who, 'Who', maybe)])]).
`,
    );
    expect(await expectOneLine(argument)).toBe(
      `${argument}:3: prompt greet lists the argument argument(who,'Who',maybe); expected argument(Name, Description, Required) with an atom Name and Required true or false`,
    );
    const resource = file(
      'resource.pl',
      `:- module(resource, []).

resources([resource('a://b', b)]).
`,
    );
    expect(await expectOneLine(resource)).toBe(
      `${resource}:3: resources/1 lists resource('a://b',b), which is not a resource descriptor; expected resource(Uri, Name, Description, MimeType) or resource(Uri, Name, Title, Description, MimeType)`,
    );
  });

  it('a syntax error, once, with its line and column', async () => {
    const path = file(
      'syntax.pl',
      `:- module(syntax, []).

tools([tool(add, add, 3)]).

add(A, B, C) :- C is A + .
`,
    );
    expect(await expectOneLine(path)).toBe(`${path}:5:25: Syntax error: Unbalanced operator`);
  });

  it('a relative path given from another directory', async () => {
    file('calc.pl', ':- module(calc, []).\ntools([]).\n');
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    expect(await expectOneLine('calc.pl', elsewhere)).toBe(
      `file not found: calc.pl (resolved to ${join(elsewhere, 'calc.pl')})`,
    );
  });
});

const THROWER = `:- module(thrower, []).

tools([tool(lookup, lookup, 1), tool(unbound, unbound, 0), tool(divide, divide, 0),
       tool(typed, typed, 0), tool(custom, custom, 0)]).

:- mode(lookup(-atom), one).
% Called through a variable: check (which refuses an undefined helper) cannot see it; the call can.
lookup(X) :- Goal = foo(X, 1), call(Goal).

tool_call(unbound, _, text(ok)) :- atom_length(_, _).
tool_call(divide, _, text(ok)) :- _ is 1 / 0.
tool_call(typed, _, text(ok)) :- atom_length(f(x), _).
tool_call(custom, _, text(ok)) :- throw(my_exception(42)).
unbound. divide. typed. custom.
`;

describe('Prolog exceptions reaching a client', { timeout: scaled(60_000) }, () => {
  it('are readable tool errors; the raw term is in the server log', async () => {
    const client = new Client({ name: 'diagnostics', version: '1.0.0' });
    const transport = new StdioClientTransport(hostStdioParams([file('thrower.pl', THROWER)]));
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += String(chunk)));
    await client.connect(transport);
    try {
      const call = async (name: string) => {
        const result = await client.callTool({ name, arguments: {} });
        expect(result.isError, name).toBe(true);
        return (result.content as { text: string }[])[0]!.text;
      };
      expect(await call('lookup')).toBe('the predicate foo/2 does not exist (in lookup/1)');
      expect(await call('unbound')).toBe(
        'instantiation error: an argument was not bound (in atom_length/2)',
      );
      expect(await call('divide')).toBe('arithmetic error: division by zero (in (/)/2)');
      expect(await call('typed')).toBe(
        'expected a value of type text, got f(x) (in atom_length/2)',
      );
      // Not an ISO error term: shown as it is, as Logtalk's library does.
      expect(await call('custom')).toBe('my_exception(42)');
      // Standard error is its own pipe: its lines may arrive just after the answers.
      await vi.waitFor(() => {
        expect(stderr).toContain(
          'rondo: tool lookup raised error(existence_error(procedure,thrower:foo/2),',
        );
        expect(stderr).toContain('rondo: tool divide raised error(evaluation_error(zero_divisor),');
      });
    } finally {
      await client.close();
    }
  });
});
