import { parseArgs } from 'node:util';
import { AUTH_FLAGS, AUTH_FLAGS_HELP, readAuthFlags, type AuthFlagSettings } from '@rondo/auth';
import { ConfigurationError } from '@rondo/core';
import {
  SERVING_FLAG_OPTIONS,
  SERVING_FLAGS_HELP,
  SERVING_FLAGS_USAGE,
  ServingFlagError,
  readServingFlags,
  type ServingFlags,
} from '@rondo/server';

/** The parsed command line of `rondo-gateway`. */
export interface GatewayArgs extends ServingFlags {
  /** `--help` was given. */
  help: boolean;
  /** Serve the configuration (default), or `check` each upstream once. */
  command: 'serve' | 'check';
  /** The configuration file (`mcpServers` JSON). */
  config: string;
  /** The OAuth resource server's settings from `--auth-*` (or `RONDO_AUTH_*`), for http and ws. */
  auth?: AuthFlagSettings;
}

/** A command-line mistake: printed with the usage line, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The usage lines. */
export const USAGE = `usage: rondo-gateway ${SERVING_FLAGS_USAGE}
                     [--auth-resource URL --auth-issuer ISS
                      --auth-jwks URL | --auth-introspection URL --auth-client-id ID] CONFIG.json
       rondo-gateway check CONFIG.json`;

/** What `rondo-gateway --help` prints. */
export const HELP = `${USAGE}

Serves every MCP server of CONFIG.json (the "mcpServers" format of Claude Desktop, Cursor and
VS Code) as one MCP server, to clients of both protocol eras (2025-06-18, 2025-11-25 and
2026-07-28), whatever era each upstream speaks: an upstream's questions to its client
(elicitation, sampling, roots) reach a 2026-07-28 client as input_required rounds, and a
2026-07-28 upstream's rounds reach a legacy client as requests.

Entries:
  {"command": "npx", "args": [...], "env": {...}, "cwd": "..."}   a server run on stdio
  {"url": "https://host/mcp", "headers": {...}}                    Streamable HTTP (ws:// for WebSocket)
    with "oauth": {"clientId": "...", "clientSecretEnv": "VAR"}     logging in with client credentials
  {"prolog": "file.pl"}                                            a Prolog provider file, in-process
  {"openapi": "api.json", "baseUrl": "https://api", "auth": {...}} an OpenAPI document's operations
  Rondo keys of any entry: "namespace" (prefix of its tool and prompt names, "<ns>_<name>";
  default the entry's key; "" for none), "include" / "exclude" (names, "*" matches any run),
  "includeTags" / "excludeTags" (the upstream's tags, as FastMCP sends them in _meta),
  "rename" ({"upstream": "shown"}), "timeoutMs" (the upstream's deadline for its next move,
  default 60000), "maxConcurrent" (calls at once, default 16), "era" (how to speak to it:
  "auto", the default; "mirror": each caller in its own era, with a second connection in the
  legacy era for legacy callers; or a revision), "disabled", "tools" (derived tools),
  "toolSearch" (search meta-tools; also beside "mcpServers", for the whole gateway).

Commands:
  check CONFIG.json  start each upstream once and print one line each: what it serves, or why
                     it failed; exit 1 when one failed.

${SERVING_FLAGS_HELP}
  --help             print this help and exit.

${AUTH_FLAGS_HELP}

Examples:
  rondo-gateway servers.json                                 # stdio, for a desktop host
  rondo-gateway --transport http --port 8080 servers.json    # http://127.0.0.1:8080/mcp
  rondo-gateway check servers.json`;

/**
 * Parses the command line (`env` supplies `RONDO_ALLOWED_HOSTS`, `RONDO_REDIS_URL` and the
 * `RONDO_AUTH_*` variables). `--auth-*` needs http or ws: stdio carries no bearer token.
 */
export function parseGatewayArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): GatewayArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        ...SERVING_FLAG_OPTIONS,
        ...AUTH_FLAGS,
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (failure) {
    throw new UsageError((failure as Error).message);
  }
  let flags: ServingFlags;
  try {
    flags = readServingFlags(parsed.values, env);
  } catch (failure) {
    if (failure instanceof ServingFlagError) throw new UsageError(failure.message);
    throw failure;
  }
  const auth = readGatewayAuth(parsed.values, env, flags.transport);
  const positionals = [...parsed.positionals];
  const command = positionals[0] === 'check' ? 'check' : 'serve';
  if (command === 'check') positionals.shift();
  const help = parsed.values.help;
  if (!help && positionals.length !== 1) {
    throw new UsageError(
      positionals.length === 0 ? 'no CONFIG.json given' : 'one CONFIG.json only',
    );
  }
  return { ...flags, help, command, config: positionals[0] ?? '', ...(auth ? { auth } : {}) };
}

/** The `--auth-*` settings (the shared ones of `@rondo/auth`), checked against the transport. */
function readGatewayAuth(
  values: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>>,
  transport: string,
): AuthFlagSettings | undefined {
  let settings: AuthFlagSettings | undefined;
  try {
    settings = readAuthFlags(values, env);
  } catch (failure) {
    if (failure instanceof ConfigurationError) throw new UsageError(failure.message);
    throw failure;
  }
  if (settings !== undefined && transport === 'stdio')
    throw new UsageError('--auth-* needs --transport http or ws: stdio carries no bearer token');
  return settings;
}
