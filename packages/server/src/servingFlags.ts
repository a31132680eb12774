import { ConfigurationError, parseAllowedHosts, parseStateKeys, type StateKey } from '@rondo/core';
import type { Transport } from './serve.js';

/**
 * The serving flags every Rondo command shares (`--transport --host --port --path --allowed-hosts
 * --state-keys --redis`): their `node:util` `parseArgs` option table, the reader of the parsed
 * values, and their help text, so each command parses and documents them one way.
 */

/** The serving flags, read and checked. */
export interface ServingFlags {
  transport: Transport;
  host: string;
  /** The port (http, ws); 0 picks a free one. */
  port: number;
  /** The URL path (http, ws); each transport has its own default (`/mcp`, `/ws`). */
  path?: string;
  /** The Host names accepted (http, ws): `--allowed-hosts`, else `RONDO_ALLOWED_HOSTS`. */
  allowedHosts?: readonly string[] | 'any';
  /** The requestState key ring from `--state-keys`; without it the core reads the environment. */
  stateKeys?: StateKey[];
  /** The Redis server replicas share their state in: `--redis`, else `RONDO_REDIS_URL`. */
  redis?: string;
}

/** The serving flags as a `parseArgs` option table, to spread into a command's own. */
export const SERVING_FLAG_OPTIONS = {
  transport: { type: 'string', default: 'stdio' },
  host: { type: 'string', default: '127.0.0.1' },
  port: { type: 'string' },
  path: { type: 'string' },
  'allowed-hosts': { type: 'string' },
  'state-keys': { type: 'string' },
  redis: { type: 'string' },
} as const;

/** What `parseArgs` gives for the serving flags. */
export interface ServingFlagValues {
  transport?: string | undefined;
  host?: string | undefined;
  port?: string | undefined;
  path?: string | undefined;
  'allowed-hosts'?: string | undefined;
  'state-keys'?: string | undefined;
  redis?: string | undefined;
}

/** A serving flag with a value the command cannot use; the command prints it with its usage. */
export class ServingFlagError extends Error {
  override readonly name = 'ServingFlagError';
}

const DEFAULT_PORTS: Record<Transport, number> = { stdio: 0, http: 3000, ws: 3001 };

/**
 * Reads the serving flags from parsed values, with `RONDO_ALLOWED_HOSTS` and `RONDO_REDIS_URL`
 * from `env` when their flag is absent (an empty variable counts as unset); throws a
 * {@link ServingFlagError} naming the flag on a mistake.
 */
export function readServingFlags(
  values: ServingFlagValues,
  env: Readonly<Record<string, string | undefined>> = {},
): ServingFlags {
  const transport = values.transport ?? 'stdio';
  if (transport !== 'stdio' && transport !== 'http' && transport !== 'ws') {
    throw new ServingFlagError(`unknown transport "${transport}" (stdio, http or ws)`);
  }
  const port = values.port === undefined ? DEFAULT_PORTS[transport] : Number(values.port);
  if (!/^\d+$/.test(values.port ?? '0') || port > 65535) {
    throw new ServingFlagError(`--port must be an integer from 0 to 65535, got "${values.port}"`);
  }
  const flags: ServingFlags = { transport, host: values.host ?? '127.0.0.1', port };
  if (values.path !== undefined) flags.path = values.path;
  const redis = values.redis ?? (env.RONDO_REDIS_URL || undefined);
  if (redis !== undefined) flags.redis = redis;
  const hosts = values['allowed-hosts'] ?? (env.RONDO_ALLOWED_HOSTS || undefined);
  const from = values['allowed-hosts'] === undefined ? 'RONDO_ALLOWED_HOSTS' : '--allowed-hosts';
  if (hosts !== undefined) flags.allowedHosts = checked(() => parseAllowedHosts(hosts, from));
  const keys = values['state-keys'];
  if (keys !== undefined) flags.stateKeys = checked(() => parseStateKeys(keys, '--state-keys'));
  return flags;
}

function checked<T>(read: () => T): T {
  try {
    return read();
  } catch (failure) {
    if (failure instanceof ConfigurationError) throw new ServingFlagError(failure.message);
    throw failure;
  }
}

/** The usage line of the serving flags. */
export const SERVING_FLAGS_USAGE =
  '[--transport stdio|http|ws] [--host H] [--port N] [--path P] [--allowed-hosts H1,H2] [--state-keys ID:SECRET,...] [--redis URL]';

/** The help text of the serving flags, one block for every command's `--help`. */
export const SERVING_FLAGS_HELP = `Serving:
  --transport T      stdio (default): JSON-RPC lines on stdin/stdout, nothing else on stdout;
                     http: Streamable HTTP at http://HOST:PORT/mcp; ws: WebSocket (subprotocol
                     "mcp") at ws://HOST:PORT/ws. Every transport serves both protocol eras.
  --host H           address to listen on (http, ws); default 127.0.0.1.
  --port N           port to listen on (http, ws); default 3000 (http), 3001 (ws); 0 = any free.
  --path P           URL path (http, ws); default /mcp (http), /ws (ws).
  --allowed-hosts H1,H2
                     the Host names accepted (http, ws), comma-separated: behind a proxy, the
                     name it forwards (mcp.example.com). The list replaces the default rule
                     (localhost and IP literals); "any" turns the check off, for a proxy that
                     checks Host itself. Default RONDO_ALLOWED_HOSTS.
  --state-keys ID:SECRET,...
                     the key ring that seals request state, newest (sealing) key first, each
                     secret 32 bytes or more ("base64:..." for a secret with a comma). A command
                     line is visible to other users: prefer RONDO_STATE_KEYS (the same format) or
                     RONDO_STATE_KEY (one key).
  --redis URL        share sessions, event logs, changes and tasks with the other replicas behind
                     one balancer, in Redis (redis://host:port); default RONDO_REDIS_URL. Give
                     every replica the same state keys. See docs/scale-out.md.`;
