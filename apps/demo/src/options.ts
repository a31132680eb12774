import type { AuthFlagSettings } from '@rondo/auth';
import { parseAllowedHosts, parseStateKeys, type StateKey } from '@rondo/core';
import { DEMO_AUTH_HELP, DemoAuthFlags } from './authOptions.js';

/** How the demo was asked to run. */
export interface DemoOptions {
  mode: 'http' | 'stdio' | 'smoke' | 'help';
  host: string;
  /** 0 picks a free port. */
  port: number;
  withoutProlog: boolean;
  /** How often `demo://clock` changes, in ms. */
  clockIntervalMs: number;
  /** The Redis server this replica shares its state with (`--redis`, `RONDO_REDIS_URL`). */
  redis?: string;
  /**
   * The Host names accepted on every route (`/mcp`, `/ws`, `/traffic`): `--allowed-hosts`, else
   * `RONDO_ALLOWED_HOSTS`; without either, the default rule (localhost and IP literals).
   */
  allowedHosts?: readonly string[] | 'any';
  /** The requestState key ring from `--state-keys`; without it the environment's, else a random key. */
  stateKeys?: StateKey[];
  /**
   * Serve `/traffic` (`--traffic`, `RONDO_DEMO_TRAFFIC=1`) or not (`--no-traffic`,
   * `RONDO_DEMO_TRAFFIC=0`); unset, only when bound to a loopback address.
   */
  traffic?: boolean;
  /**
   * The header a reverse proxy sets to the client's address (`--client-address-header`, else
   * `RONDO_CLIENT_ADDRESS_HEADER`): who an anonymous client is, for its fair shares.
   */
  clientAddressHeader?: string;
  /** The OAuth resource server of /mcp and /ws, from `--auth-*` or `RONDO_AUTH_*`. */
  auth?: AuthFlagSettings;
}

/** The text of `--help`. */
export const USAGE = `rondo-demo: the Rondo demo server and playground

  pnpm demo [--port N] [--host H]   HTTP /mcp, WebSocket /ws and the playground / (default 127.0.0.1:8080),
                                    with the calls the server saw at /traffic and /traffic/stream
  pnpm demo --stdio                 MCP over stdin/stdout, for desktop hosts (nothing else on stdout)
  pnpm demo --smoke                 start on a free port, check server/discover, initialize and a
                                    WebSocket call, stop; exit 0 when all pass (also RONDO_DEMO_SMOKE=1)
  --no-prolog                       skip the Prolog bird expert
  --redis URL                       share sessions, event logs, changes and tasks with other replicas
                                    in Redis (also RONDO_REDIS_URL); see docs/scale-out.md
  --allowed-hosts H1,H2             the Host names accepted on /mcp, /ws and /traffic, e.g. the public name a
                                    proxy forwards; the list replaces the default rule (localhost and IP
                                    literals), "any" turns the check off (also RONDO_ALLOWED_HOSTS)
  --state-keys ID:SECRET,...        the requestState key ring, newest (sealing) first, each secret 32 bytes or
                                    more ("base64:..." for a secret with a comma); prefer RONDO_STATE_KEYS:
                                    a command line is visible to other users
  --traffic, --no-traffic           serve /traffic (every client's calls, secrets hidden) or not; by default
                                    only when bound to a loopback address (also RONDO_DEMO_TRAFFIC=1 or 0)
  --client-address-header NAME      behind a reverse proxy, the header it sets to the client's address
                                    (x-real-ip, or x-forwarded-for: its last entry): who an anonymous
                                    client is, for its share of sessions, streams and tasks; only with a
                                    proxy that sets it on every request (also RONDO_CLIENT_ADDRESS_HEADER)

${DEMO_AUTH_HELP}

Environment: PORT (default port), RONDO_DEMO_SMOKE=1 (same as --smoke), RONDO_STATE_KEY (one requestState key,
32 bytes or more), RONDO_STATE_KEYS (a key ring, as --state-keys), RONDO_ALLOWED_HOSTS (as --allowed-hosts),
RONDO_DEMO_CLOCK_MS (how often demo://clock changes, default 5000), RONDO_SWIPL (the swipl executable).`;

function portFrom(value: string | undefined, what: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`${what} must be a port number, got "${value}"`);
  return port;
}

/** An HTTP header name (a token, RFC 9110), or an error naming `what`. */
function headerName(value: string | undefined, what: string): string {
  if (!value || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(value))
    throw new Error(`${what} must be an HTTP header name such as x-forwarded-for, got "${value}"`);
  return value.toLowerCase();
}

/** Reads the command line and environment; throws on an argument it does not know. */
export function parseDemoOptions(argv: readonly string[], env: NodeJS.ProcessEnv): DemoOptions {
  const smokeByEnv = env.RONDO_DEMO_SMOKE === '1' || env.RONDO_DEMO_SMOKE === 'true';
  const options: DemoOptions = {
    mode: smokeByEnv ? 'smoke' : 'http',
    host: '127.0.0.1',
    port: env.PORT ? portFrom(env.PORT, 'PORT') : 8080,
    withoutProlog: false,
    clockIntervalMs: env.RONDO_DEMO_CLOCK_MS ? Number(env.RONDO_DEMO_CLOCK_MS) : 5000,
  };
  let portGiven = env.PORT !== undefined;
  const auth = new DemoAuthFlags();
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? '';
    const [flag = '', inline] = argument.startsWith('--') ? argument.split('=', 2) : [argument];
    const value = () => inline ?? argv[++index];
    switch (flag) {
      case '--port':
        options.port = portFrom(value(), '--port');
        portGiven = true;
        break;
      case '--host':
        options.host = value() ?? options.host;
        break;
      case '--stdio':
        options.mode = 'stdio';
        break;
      case '--smoke':
        options.mode = 'smoke';
        break;
      case '--no-prolog':
        options.withoutProlog = true;
        break;
      case '--redis':
        options.redis = value();
        break;
      case '--allowed-hosts':
        options.allowedHosts = parseAllowedHosts(value() ?? '', '--allowed-hosts');
        break;
      case '--state-keys':
        options.stateKeys = parseStateKeys(value() ?? '', '--state-keys');
        break;
      case '--client-address-header':
        options.clientAddressHeader = headerName(value(), '--client-address-header');
        break;
      case '--traffic':
      case '--no-traffic':
        options.traffic = flag === '--traffic';
        break;
      case '--help':
      case '-h':
        options.mode = 'help';
        break;
      default:
        if (auth.take(flag, value)) break;
        throw new Error(`unknown argument "${argument}"\n\n${USAGE}`);
    }
  }
  // An empty variable is an unset one (`RONDO_ALLOWED_HOSTS=${HOSTS}` with HOSTS unset).
  if (options.allowedHosts === undefined && env.RONDO_ALLOWED_HOSTS)
    options.allowedHosts = parseAllowedHosts(env.RONDO_ALLOWED_HOSTS, 'RONDO_ALLOWED_HOSTS');
  if (!Number.isInteger(options.clockIntervalMs) || options.clockIntervalMs < 10) {
    throw new Error(
      `RONDO_DEMO_CLOCK_MS must be an integer of at least 10, got "${env.RONDO_DEMO_CLOCK_MS}"`,
    );
  }
  if (options.traffic === undefined && env.RONDO_DEMO_TRAFFIC)
    options.traffic = env.RONDO_DEMO_TRAFFIC === '1' || env.RONDO_DEMO_TRAFFIC === 'true';
  if (options.clientAddressHeader === undefined && env.RONDO_CLIENT_ADDRESS_HEADER)
    options.clientAddressHeader = headerName(
      env.RONDO_CLIENT_ADDRESS_HEADER,
      'RONDO_CLIENT_ADDRESS_HEADER',
    );
  options.redis ??= env.RONDO_REDIS_URL || undefined;
  if (options.redis === undefined) delete options.redis;
  const authSettings = auth.settings(env, options.mode === 'stdio');
  if (authSettings !== undefined) options.auth = authSettings;
  // A smoke run must not fight a demo the user already has on 8080.
  if (options.mode === 'smoke' && !portGiven) options.port = 0;
  return options;
}
