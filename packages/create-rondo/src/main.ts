#!/usr/bin/env node
import { createInterface } from 'node:readline/promises';
import { relative } from 'node:path';
import { parseCreateArgs, USAGE, UsageError } from './cliArgs.js';
import { ScaffoldError, writeScaffold, type ProviderKind } from './scaffold.js';

async function ask(question: string, fallback: string): Promise<string> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await prompt.question(`${question} (${fallback}) `)).trim() || fallback;
  } finally {
    prompt.close();
  }
}

async function main(): Promise<number> {
  const args = parseCreateArgs(process.argv.slice(2));
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const interactive = process.stdin.isTTY === true;
  const directory =
    args.directory ??
    (interactive ? await ask('Project folder?', 'my-mcp-server') : 'my-mcp-server');
  let kind: ProviderKind = args.kind ?? 'typescript';
  if (args.kind === undefined && interactive) {
    const answer = await ask('Provider in typescript or prolog?', 'typescript');
    if (answer !== 'typescript' && answer !== 'prolog')
      throw new UsageError(`"${answer}" is neither typescript nor prolog`);
    kind = answer;
  }
  const files = writeScaffold({ directory, kind });
  const where = relative(process.cwd(), directory) || '.';
  console.log(`Created ${where} (${kind} provider): ${files.join(', ')}`);
  console.log(`Next: cd ${where} && npm install && npm test`);
  return 0;
}

main().then(
  (code) => (process.exitCode = code),
  (failure: unknown) => {
    if (failure instanceof UsageError || failure instanceof ScaffoldError) {
      console.error(`create-rondo: ${failure.message}`);
      if (failure instanceof UsageError) console.error(USAGE);
      process.exitCode = 2;
      return;
    }
    throw failure;
  },
);
