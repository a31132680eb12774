import { parseArgs } from 'node:util';
import type { ProviderKind } from './scaffold.js';

/** What the command line asked for; `kind` is undefined when it did not say. */
export interface CreateArgs {
  directory: string | undefined;
  kind: ProviderKind | undefined;
  help: boolean;
}

/** The usage text. */
export const USAGE = `create-rondo: scaffold an MCP server project on Rondo

  npm create rondo [folder] [-- --typescript | --prolog]
  create-rondo [folder] [--typescript | --prolog | --kind typescript|prolog]

Without a kind, it asks when run in a terminal, and takes typescript otherwise.`;

/** A command-line mistake. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Reads the command line. */
export function parseCreateArgs(argv: string[]): CreateArgs {
  const { values, positionals } = parseOptions(argv);
  if (positionals.length > 1) throw new UsageError(`one folder, not ${positionals.length}`);
  const named = [
    values.kind,
    values.typescript ? 'typescript' : undefined,
    values.prolog ? 'prolog' : undefined,
  ].filter((kind): kind is string => kind !== undefined);
  if (new Set(named).size > 1) throw new UsageError(`pick one kind, not ${named.join(' and ')}`);
  const kind = named[0];
  if (kind !== undefined && kind !== 'typescript' && kind !== 'prolog')
    throw new UsageError(`--kind is typescript or prolog, not "${kind}"`);
  return { directory: positionals[0], kind, help: values.help === true };
}

function parseOptions(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        kind: { type: 'string' },
        typescript: { type: 'boolean' },
        prolog: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (failure) {
    // node:util's own wording ("Unknown option '--prolgo'. To specify a positional argument
    // starting with a '-', place it at the end of the command after '--'...") is one sentence too
    // many for a typo: keep its first.
    if ((failure as { code?: string }).code?.startsWith('ERR_PARSE_ARGS_'))
      throw new UsageError((failure as Error).message.split('. ')[0]!.replace(/\.$/, ''));
    throw failure;
  }
}
