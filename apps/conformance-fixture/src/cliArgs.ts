import { parseArgs } from 'node:util';
import { ConfigurationError, parseAllowedHosts, parseStateKeys, type StateKey } from '@rondo/core';

/** The transports the fixture CLI can serve on. */
export type FixtureTransport = 'stdio' | 'http' | 'ws';

/** The fixture CLI's parsed arguments. */
export interface FixtureArgs {
  transport: FixtureTransport;
  host: string;
  /** The port to listen on (http and ws only); 0 picks a free one. */
  port: number;
  /** The URL path (http and ws only); each transport has its own default (`/mcp`, `/ws`). */
  path?: string;
  /** The Redis server whose state this process shares with other replicas (`--redis`, `RONDO_REDIS_URL`). */
  redis?: string;
  /**
   * The Host names the server answers to (http and ws): `--allowed-hosts`, else
   * `RONDO_ALLOWED_HOSTS`; without either, the transports' default rule (loopback and IP literals).
   */
  allowedHosts?: readonly string[] | 'any';
  /** The requestState key ring from `--state-keys`; without it the core reads the environment. */
  stateKeys?: StateKey[];
  /** `--help` was given: print {@link USAGE} and exit 0. */
  help?: true;
}

const DEFAULT_PORTS: Record<FixtureTransport, number> = { stdio: 0, http: 3000, ws: 3001 };

/** A command-line mistake: the CLI prints it with the usage and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The usage text. */
export const USAGE = `usage: rondo-fixture [--transport stdio|http|ws] [--port N] [--host H] [--path P]
                     [--allowed-hosts H1,H2] [--state-keys ID:SECRET,...] [--redis URL] [--help]
  stdio (default) writes only JSON-RPC to stdout; http defaults to 127.0.0.1:3000, ws to 127.0.0.1:3001
  --allowed-hosts   the Host names accepted (http, ws), e.g. the public name a proxy forwards; the list
                    replaces the default rule (localhost and IP literals), "any" turns the check off
                    (also RONDO_ALLOWED_HOSTS)
  --state-keys      the requestState key ring, newest (sealing) first, each secret 32 bytes or more;
                    "base64:..." for a secret with a comma. Prefer RONDO_STATE_KEYS (the same format)
                    or RONDO_STATE_KEY (one key): a command line is visible to other users`;

/**
 * Parses `--transport`, `--port`, `--host`, `--path`, `--allowed-hosts`, `--state-keys` and
 * `--redis`; `env` supplies `RONDO_ALLOWED_HOSTS` and `RONDO_REDIS_URL` when a flag is absent.
 */
export function parseFixtureArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): FixtureArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        transport: { type: 'string', default: 'stdio' },
        port: { type: 'string' },
        host: { type: 'string', default: '127.0.0.1' },
        path: { type: 'string' },
        redis: { type: 'string' },
        'allowed-hosts': { type: 'string' },
        'state-keys': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (failure) {
    throw new UsageError((failure as Error).message);
  }
  const transport = values.transport;
  if (transport !== 'stdio' && transport !== 'http' && transport !== 'ws') {
    throw new UsageError(`unknown transport "${transport}"`);
  }
  const port = values.port === undefined ? DEFAULT_PORTS[transport] : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be an integer from 0 to 65535, got "${values.port}"`);
  }
  const parsed: FixtureArgs = { transport, host: values.host, port };
  if (values.path !== undefined) parsed.path = values.path;
  const redis = values.redis ?? env.RONDO_REDIS_URL;
  if (redis !== undefined && redis !== '') parsed.redis = redis;
  if (values.help === true) parsed.help = true;
  // An empty variable is an unset one (`RONDO_ALLOWED_HOSTS=${HOSTS}` with HOSTS unset).
  const hosts = values['allowed-hosts'] ?? (env.RONDO_ALLOWED_HOSTS || undefined);
  const hostsFrom =
    values['allowed-hosts'] === undefined ? 'RONDO_ALLOWED_HOSTS' : '--allowed-hosts';
  if (hosts !== undefined) parsed.allowedHosts = asUsage(() => parseAllowedHosts(hosts, hostsFrom));
  const keys = values['state-keys'];
  if (keys !== undefined) parsed.stateKeys = asUsage(() => parseStateKeys(keys, '--state-keys'));
  return parsed;
}

/** A flag's value the core refuses is a command-line mistake. */
function asUsage<T>(read: () => T): T {
  try {
    return read();
  } catch (failure) {
    if (failure instanceof ConfigurationError) throw new UsageError(failure.message);
    throw failure;
  }
}
