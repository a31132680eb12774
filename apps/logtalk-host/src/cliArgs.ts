import { parseArgs } from 'node:util';
import { AUTH_FLAGS, AUTH_FLAGS_HELP, type AuthFlagSettings } from '@rondo/auth';
import type { StateKey } from '@rondo/core';
import { readHostAuth } from './authArgs.js';
import {
  SERVING_FLAG_OPTIONS,
  SERVING_FLAGS_HELP,
  ServingFlagError,
  readServingFlags,
  type ServingFlags,
} from '@rondo/server';

/** The transports `rondo-logtalk` serves on. */
export type HostTransport = 'stdio' | 'http' | 'ws';

/** The parsed command line of `rondo-logtalk`. */
export interface HostArgs {
  /** `--help` was given: print {@link HELP} and exit 0. */
  help: boolean;
  /** What to do: serve (default), `check FILE...`, or `call FILE TOOL [JSON]`. */
  command: 'serve' | 'check' | 'call';
  /** `--watch`: reload the workers when a file changes (serve only). */
  watch: boolean;
  /** The tool `call` runs; without one, `call` lists the tools. */
  tool?: string;
  /** The arguments `call` passes (a JSON object; default `{}`). */
  toolArguments?: Record<string, unknown>;
  transport: HostTransport;
  host: string;
  /** The port (http and ws); 0 picks a free one. */
  port: number;
  /** The URL path (http and ws); each transport has its own default (`/mcp`, `/ws`). */
  path?: string;
  /** The provider module or object; by default the one found in the files. */
  object?: string;
  /** Worker processes; by default one per core. */
  workers?: number;
  /** One call's deadline in seconds (fractions allowed). */
  timeoutSeconds?: number;
  /** The `swipl` executable. */
  swipl?: string;
  /** The Logtalk distribution for `.lgt` files (else `LOGTALKHOME`, else a well-known place). */
  logtalkHome?: string;
  /** The server's name in `initialize` / `server/discover`. */
  name?: string;
  /** The server's description (`serverInfo.description`, 2025-11-25 on). */
  description?: string;
  /** The server's title (`serverInfo.title`); default `<provider> (rondo-logtalk)`. */
  title?: string;
  /**
   * The Host names accepted (http, ws): `--allowed-hosts`, else `RONDO_ALLOWED_HOSTS`; without
   * either, the transports' default rule (localhost and IP literals).
   */
  allowedHosts?: readonly string[] | 'any';
  /** The requestState key ring from `--state-keys`; without it the core reads the environment. */
  stateKeys?: StateKey[];
  /** The Redis server this replica shares its state with: `--redis`, else `RONDO_REDIS_URL`. */
  redis?: string;
  /** Behind a reverse proxy (http, ws), the header it sets to the client's address. */
  clientAddressHeader?: string;
  /** The OAuth resource server's settings from `--auth-*` (or `RONDO_AUTH_*`), for http and ws. */
  auth?: AuthFlagSettings;
  /** The Prolog (`.pl`) or Logtalk (`.lgt`) files to load. */
  files: string[];
}

/** A command-line mistake: the CLI prints it with the usage line and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The short usage line printed with a command-line mistake. */
export const USAGE =
  'usage: rondo-logtalk [--watch] [--transport stdio|http|ws] [--host H] [--port N] [--path P] [--object NAME]\n' +
  '                     [--workers N] [--timeout S] [--swipl PATH] [--logtalk-home DIR] [--name NAME]\n' +
  '                     [--title TEXT] [--description TEXT] [--allowed-hosts H1,H2]\n' +
  '                     [--state-keys ID:SECRET,...] [--redis URL] [--client-address-header NAME]\n' +
  '                     [--auth-resource URL --auth-issuer ISS\n' +
  '                     --auth-jwks URL | --auth-introspection URL --auth-client-id ID] FILE...\n' +
  '       rondo-logtalk check FILE...\n' +
  "       rondo-logtalk call FILE [TOOL ['{json arguments}']]";

/** What `rondo-logtalk --help` prints. */
export const HELP = `${USAGE}

Serves a Logtalk object or SWI-Prolog module, written with the predicates of Logtalk's
mcp_server protocols (tools/1, tool_call/3, tool_call/4, prompts/1, prompt_get/3,
resources/1, resource_read/3, completion/4, the round hooks ...), as an MCP server for
clients of both protocol eras (2025-06-18, 2025-11-25 and 2026-07-28).

Files:
  FILE...            .pl files (SWI-Prolog modules) or .lgt files (Logtalk objects; needs a
                     Logtalk 3 distribution, see --logtalk-home). Every worker loads every file once. A file
                     that fails to load stops the host: "file:line: message", exit code 1.

Commands:
  check FILE...      load the files and report what is wrong with the provider without serving
                     it: descriptors naming missing predicates, modes that do not parse, schemas
                     that are not JSON Schema, bad resource templates; one "file:line: message"
                     each; exit 1 when anything is wrong.
  call FILE TOOL [J] run one tool with the JSON object J as arguments (default {}) and print its
                     result; exit 1 for a tool error or a tool that asks the client for input.
  call FILE          list the tools FILE offers, one "name: description" each.

Options:
  --watch            reload the workers when a FILE changes: calls in flight finish on the old
                     code, clients get list-changed notifications.
  --object NAME      the provider module or object; default: the one found in the files (a
                     module defining tools/1, prompts/1, resources/1, skills/1 or events/1;
                     for Logtalk, the last object implementing an mcp_*_protocol).
  --workers N        Prolog worker processes, each running one call at a time; default: the
                     number of cores.
  --timeout S        deadline of one call in seconds (waiting for the client not counted);
                     a call past it fails and its worker is replaced; default 30.
  --swipl PATH       the SWI-Prolog executable; default swipl.
  --logtalk-home DIR the Logtalk 3 distribution for .lgt files; default LOGTALKHOME, else the
                     first of /usr/local/share/logtalk, /usr/share/logtalk, /opt/local/share/logtalk,
                     the Homebrew prefixes and /opt/logtalk that holds one.
  --name NAME        the server name announced to clients; default rondo-logtalk.
  --title TEXT       the server title announced to clients (as the library's server_title/1);
                     default "<provider name> (rondo-logtalk)".
  --description TEXT the server description announced to clients (serverInfo.description, as
                     the mcp_server library's server_description/1 option).
  --help             print this help and exit.

${SERVING_FLAGS_HELP}
  Over stdio, nothing but JSON-RPC is ever written to stdout (Prolog output goes to stderr).

${AUTH_FLAGS_HELP}

Environment:
  LOGTALKHOME        a Logtalk 3 distribution, for .lgt files (see --logtalk-home).
  LOGTALKUSER        your Logtalk user directory (settings, libraries); default ~/logtalk. Workers
                     read it but never write into it.
  RONDO_STATE_KEY    the key (32 bytes or more) that seals round-hook request state (default: random per process).
  RONDO_STATE_KEYS   a ring of such keys instead, as --state-keys: k2:new-secret,k1:old-secret; every
                     listed key opens a state, the first seals, so keys rotate without failing a round.
  RONDO_ALLOWED_HOSTS the Host names accepted, as --allowed-hosts.
  RONDO_REDIS_URL    the Redis server replicas share their state in, as --redis.

Examples:
  rondo-logtalk birds.pl                                  # stdio, for an MCP client config
  rondo-logtalk --transport http --port 8080 birds.pl     # http://127.0.0.1:8080/mcp
  LOGTALKHOME=/opt/logtalk rondo-logtalk --transport ws birds.lgt`;

/**
 * Parses the command line, with `RONDO_ALLOWED_HOSTS` from `env` when `--allowed-hosts` is absent;
 * throws a {@link UsageError} on a mistake.
 */
export function parseHostArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): HostArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        ...SERVING_FLAG_OPTIONS,
        object: { type: 'string' },
        workers: { type: 'string' },
        timeout: { type: 'string' },
        swipl: { type: 'string' },
        'logtalk-home': { type: 'string' },
        name: { type: 'string' },
        description: { type: 'string' },
        title: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
        watch: { type: 'boolean', default: false },
        ...AUTH_FLAGS,
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (failure) {
    throw new UsageError((failure as Error).message);
  }
  const { values, positionals } = parsed;
  let serving: ServingFlags;
  try {
    serving = readServingFlags(values, env);
  } catch (failure) {
    if (failure instanceof ServingFlagError) throw new UsageError(failure.message);
    throw failure;
  }
  const args: HostArgs = {
    help: values.help,
    command: 'serve',
    watch: values.watch,
    ...serving,
    files: positionals,
  };
  if (values.object !== undefined) args.object = values.object;
  if (values.swipl !== undefined) args.swipl = values.swipl;
  if (values['logtalk-home'] !== undefined) args.logtalkHome = values['logtalk-home'];
  if (values.name !== undefined) args.name = values.name;
  if (values.description !== undefined) args.description = values.description;
  if (values.title !== undefined) args.title = values.title;
  if (values.workers !== undefined) args.workers = integer('--workers', values.workers, 1, 1024);
  if (values.timeout !== undefined) {
    const seconds = Number(values.timeout);
    if (!Number.isFinite(seconds) || seconds <= 0)
      throw new UsageError(
        `--timeout must be a positive number of seconds, got "${values.timeout}"`,
      );
    args.timeoutSeconds = seconds;
  }
  const auth = readHostAuth(values, env, args.transport, (message) => new UsageError(message));
  if (auth !== undefined) args.auth = auth;
  subcommand(args);
  if (!args.help && args.files.length === 0) throw new UsageError('no FILE given');
  return args;
}

/** `check FILE...` and `call FILE TOOL [JSON]` (a file named so is served as `./check`). */
function subcommand(args: HostArgs): void {
  const [first, ...rest] = args.files;
  // `call --help`, `check --help`: the help, which covers both.
  if (args.help) return;
  if (first === 'check') {
    args.command = 'check';
    args.files = rest;
  } else if (first === 'call') {
    const [file, tool, json] = rest;
    if (file === undefined || rest.length > 3)
      throw new UsageError("call takes FILE, then TOOL and optionally '{json arguments}'");
    args.command = 'call';
    args.files = [file];
    // Without a tool, `call` lists the tools there are to call.
    if (tool !== undefined) {
      args.tool = tool;
      args.toolArguments = jsonObject(json ?? '{}');
    }
  }
  if (args.watch && args.command !== 'serve') throw new UsageError('--watch is for serving');
}

function jsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (failure) {
    throw new UsageError(`the tool arguments are not JSON: ${(failure as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError('the tool arguments must be a JSON object');
  return value as Record<string, unknown>;
}

function integer(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got "${text}"`);
  return value;
}
