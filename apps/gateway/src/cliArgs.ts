import { parseArgs } from 'node:util';
import { LOG_LEVELS, type LogFormat, type LogLevel } from './logger.js';
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
  /** `--version` was given. */
  version: boolean;
  /** Listen only once every upstream has connected or failed once (the old behaviour). */
  waitUpstreams: boolean;
  /** The diagnostics' format on stderr. */
  logFormat: LogFormat;
  /** The least severe diagnostics printed. */
  logLevel: LogLevel;
  /** A port of its own for `/healthz`, `/readyz` and `/metrics` (any transport; stdio's only way). */
  adminPort?: number;
  /** `/readyz` answers 200 when `all` enabled upstreams are connected (default) or `any` is. */
  readyWhen: 'all' | 'any';
  /** Reload the configuration when its file changes (SIGHUP reloads it anyway). */
  watch: boolean;
  /** Where the audit log goes: `stderr` or a file appended to; none without it. */
  audit?: string;
  /**
   * Webhook subscriptions (`events/subscribe`): `on` (delivered by the gateway to public https
   * callbacks), `off` (refused) or `private` (development: loopback and private addresses too).
   */
  webhooks: 'on' | 'off' | 'private';
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

/** The gateway's own flags: what an operator runs it with. */
const OPERATOR_FLAGS = {
  version: { type: 'boolean', default: false },
  'wait-upstreams': { type: 'boolean', default: false },
  'log-format': { type: 'string', default: 'text' },
  'log-level': { type: 'string', default: 'info' },
  'admin-port': { type: 'string' },
  'ready-when': { type: 'string', default: 'all' },
  watch: { type: 'boolean', default: false },
  audit: { type: 'string' },
  webhooks: { type: 'string', default: 'on' },
} as const;

type OperatorFlags = Pick<
  GatewayArgs,
  | 'version'
  | 'waitUpstreams'
  | 'logFormat'
  | 'logLevel'
  | 'adminPort'
  | 'readyWhen'
  | 'watch'
  | 'audit'
  | 'webhooks'
>;

/** Reads the operator flags; a value out of range is a {@link UsageError} naming the flag. */
function readOperatorFlags(values: Readonly<Record<string, unknown>>): OperatorFlags {
  const one = <T extends string>(flag: string, allowed: readonly T[]): T => {
    const value = values[flag] as string;
    if (!(allowed as readonly string[]).includes(value))
      throw new UsageError(`--${flag} must be ${allowed.join(' or ')}, got "${value}"`);
    return value as T;
  };
  const admin = values['admin-port'] as string | undefined;
  if (admin !== undefined && (!/^\d+$/.test(admin) || Number(admin) > 65535))
    throw new UsageError(`--admin-port must be an integer from 0 to 65535, got "${admin}"`);
  return {
    version: values.version === true,
    waitUpstreams: values['wait-upstreams'] === true,
    watch: values.watch === true,
    logFormat: one<LogFormat>('log-format', ['text', 'json']),
    logLevel: one<LogLevel>('log-level', LOG_LEVELS),
    readyWhen: one<'all' | 'any'>('ready-when', ['all', 'any']),
    webhooks: one<'on' | 'off' | 'private'>('webhooks', ['on', 'off', 'private']),
    ...(admin === undefined ? {} : { adminPort: Number(admin) }),
    ...(typeof values.audit === 'string' ? { audit: values.audit } : {}),
  };
}

/** The usage lines. */
export const USAGE = `usage: rondo-gateway ${SERVING_FLAGS_USAGE}
                     [--auth-resource URL --auth-issuer ISS
                      --auth-jwks URL | --auth-introspection URL --auth-client-id ID]
                     [--wait-upstreams] [--log-format text|json] [--log-level L]
                     [--admin-port N] [--ready-when all|any] [--watch]
                     [--audit stderr|FILE] [--webhooks on|off|private] CONFIG.json
       rondo-gateway --version
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
    and "tokenExchange": true in "oauth"                            acting for each caller (RFC 8693)
  {"prolog": "file.pl"}                                            a Prolog provider file, in-process
  {"openapi": "api.json", "baseUrl": "https://api", "auth": {...}} an OpenAPI document's operations
  Rondo keys of any entry: "namespace" (prefix of its tool and prompt names, "<ns>_<name>";
  default the entry's key; "" for none), "include" / "exclude" (names, "*" matches any run),
  "includeTags" / "excludeTags" (the upstream's tags, as FastMCP sends them in _meta),
  "rename" ({"upstream": "shown"}), "timeoutMs" (the upstream's deadline for its next move,
  default 60000), "maxConcurrent" (calls at once, default 16), "era" (how to speak to it:
  "mirror", the default: each caller in its own era, with a second connection in the legacy era
  for the legacy callers of an upstream serving both, opened at the first legacy call and closed
  after "mirrorIdleMs" without one, default 300000; "auto": one connection; or a revision),
  "disabled", "tools" (derived tools), "toolSearch" (search meta-tools; also beside
  "mcpServers", for the whole gateway).

Commands:
  check CONFIG.json  start each upstream once and print one line each: what it serves, or why
                     it failed; exit 1 when one failed.

${SERVING_FLAGS_HELP}
  --help             print this help and exit.
  --version          print the version and exit.

Operating:
  --wait-upstreams   listen only once every upstream has connected or failed once; by default
                     the gateway listens at once and each upstream's tools join when it is
                     connected (clients hear list_changed).
  --log-format F     text (default): one "rondo-gateway: ..." line per event on stderr; json:
                     one JSON object per line (time, level, event, message, and the facts).
  --log-level L      error, warn, info (default) or debug.
  --admin-port N     serve /healthz, /readyz and /metrics on a port of their own (on --host);
                     over http and ws they are served beside the MCP endpoint anyway.
  --ready-when W     /readyz answers 200 when all enabled upstreams are connected (all, the
                     default) or when any one is (any); 503 otherwise.
  --watch            reload CONFIG.json when it changes. SIGHUP reloads it too: added, removed
                     and changed entries are applied without restarting the others, calls in
                     flight finish, and an invalid file is refused (the old one keeps serving).
  --audit D          write one JSON line per call to an upstream (time, principal, client,
                     upstream, tool, outcome, duration, round; never arguments or results) to
                     stderr or appended to the file D.
  --webhooks W       webhook subscriptions to the upstreams' event types (events/subscribe), held
                     and delivered by the gateway itself from each upstream's push stream, for
                     authenticated callers: on (the default; https callbacks on public addresses),
                     off (refused), or private (development: loopback and private addresses too;
                     RONDO_EVENTS_ALLOW_PRIVATE_CALLBACKS=1 says the same).

${AUTH_FLAGS_HELP}

Examples:
  rondo-gateway servers.json                                 # stdio, for a desktop host
  rondo-gateway --transport http --port 8080 servers.json    # http://127.0.0.1:8080/mcp
  rondo-gateway check servers.json`;

/**
 * Parses the command line (`env` supplies `RONDO_ALLOWED_HOSTS`, `RONDO_REDIS_URL`, the
 * `RONDO_AUTH_*` variables and `RONDO_EVENTS_ALLOW_PRIVATE_CALLBACKS`). `--auth-*` needs http or ws: stdio carries no bearer token.
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
        ...OPERATOR_FLAGS,
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
  const operator = readOperatorFlags(parsed.values);
  if (env.RONDO_EVENTS_ALLOW_PRIVATE_CALLBACKS === '1' && operator.webhooks === 'on')
    operator.webhooks = 'private';
  if (!help && !operator.version && positionals.length !== 1) {
    throw new UsageError(
      positionals.length === 0 ? 'no CONFIG.json given' : 'one CONFIG.json only',
    );
  }
  return {
    ...flags,
    ...operator,
    help,
    command,
    config: positionals[0] ?? '',
    ...(auth ? { auth } : {}),
  };
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
