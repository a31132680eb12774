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
  // npm hands its --registry (or the environment's) on as npm_config_registry: the registry
  // create-rondo came from, where the project's @rondo packages are too.
  const registry = process.env.npm_config_registry ?? process.env.NPM_CONFIG_REGISTRY;
  const files = writeScaffold({ directory, kind, ...(registry ? { registry } : {}) });
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
    // The file system refused (a folder not writable, a file in the way): the user's to fix.
    const code = (failure as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
      console.error(`create-rondo: ${(failure as Error).message}`);
      process.exitCode = 1;
      return;
    }
    throw failure;
  },
);
