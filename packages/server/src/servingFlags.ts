import { RondoError } from '@rondo/protocol';
import { ConfigurationError, parseAllowedHosts, parseStateKeys, type StateKey } from '@rondo/core';
import type { Transport } from './serve.js';

/**
 * The serving flags every Rondo command shares (`--transport --host --port --path --allowed-hosts
 * --state-keys --redis --client-address-header`): their `node:util` `parseArgs` option table, the reader of the parsed
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
  /**
   * Behind a reverse proxy (http, ws), the header it sets to the client's address, lower-cased:
   * `--client-address-header`, else `RONDO_CLIENT_ADDRESS_HEADER`.
   */
  clientAddressHeader?: string;
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
  'client-address-header': { type: 'string' },
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
  'client-address-header'?: string | undefined;
}

/** A serving flag with a value the command cannot use; the command prints it with its usage. */
export class ServingFlagError extends RondoError {
  override readonly code: string = 'server.serving-flag';
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
  const header = clientAddressHeader(transport, values['client-address-header'], env);
  if (header !== undefined) flags.clientAddressHeader = header;
  return flags;
}

/** The header naming the client's address; the flag with stdio is a mistake, the variable is not. */
function clientAddressHeader(
  transport: Transport,
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const name = flag ?? (env.RONDO_CLIENT_ADDRESS_HEADER || undefined);
  if (name === undefined) return undefined;
  const from = flag === undefined ? 'RONDO_CLIENT_ADDRESS_HEADER' : '--client-address-header';
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
    throw new ServingFlagError(
      `${from} must be an HTTP header name such as x-forwarded-for, got "${name}"`,
    );
  if (transport === 'stdio' && flag !== undefined)
    throw new ServingFlagError('--client-address-header needs --transport http or ws');
  return transport === 'stdio' ? undefined : name.toLowerCase();
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
  '[--transport stdio|http|ws] [--host H] [--port N] [--path P] [--allowed-hosts H1,H2] [--state-keys ID:SECRET,...] [--redis URL] [--client-address-header NAME]';

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
                     every replica the same state keys. See docs/scale-out.md.
  --client-address-header NAME
                     behind a reverse proxy (http, ws), the header it sets to the client's
                     address (x-real-ip, or x-forwarded-for: its last entry): who an anonymous
                     client is, for its share of sessions, streams and tasks. Only with a proxy
                     that sets it on every request. Default RONDO_CLIENT_ADDRESS_HEADER.`;
