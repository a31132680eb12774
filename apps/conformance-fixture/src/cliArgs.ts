import { parseArgs } from 'node:util';

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
}

const DEFAULT_PORTS: Record<FixtureTransport, number> = { stdio: 0, http: 3000, ws: 3001 };

/** A command-line mistake: the CLI prints it with the usage and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The usage text. */
export const USAGE =
  'usage: rondo-fixture [--transport stdio|http|ws] [--port N] [--host H] [--path P] [--redis URL]\n' +
  '  --redis URL (or RONDO_REDIS_URL): share sessions, event logs, changes and tasks with other replicas\n' +
  '  stdio (default) writes only JSON-RPC to stdout; http defaults to 127.0.0.1:3000, ws to 127.0.0.1:3001';

/** Parses `--transport`, `--port`, `--host`, `--path` and `--redis` (default `RONDO_REDIS_URL` from `env`). */
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
  return parsed;
}
