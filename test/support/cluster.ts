import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort, startNginx, type RunningNginx } from './nginx.js';
import { startRedisServer, type RedisServer } from '@rondo/test-support/redisServer';
import { scaled } from '@rondo/test-support/timeFactor';

const root = join(import.meta.dirname, '..', '..');
const FIXTURE = join(root, 'apps/conformance-fixture/dist/main.js');

/** One conformance-fixture process of a cluster, on a port it keeps across restarts. */
export interface FixtureReplica {
  readonly port: number;
  /** `http://127.0.0.1:<port>/mcp`, to reach this replica without the balancer. */
  readonly url: string;
  /** Kills the process (SIGKILL by default: nothing it holds in memory survives). */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

/** Redis, fixture replicas sharing it and one key, and nginx round robin in front of them. */
export interface Cluster {
  /** The balancer's MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  readonly redis: RedisServer;
  readonly nginx: RunningNginx;
  readonly replicas: readonly FixtureReplica[];
  /** `[method, status, upstream port]` of every request nginx finished, in order. */
  served(): Promise<[string, number, number][]>;
  stop(): Promise<void>;
}

/** What the replicas of a cluster get besides Redis and the shared key. */
export interface ClusterOptions {
  /** More environment for every replica (tokens, callback rules, trusted certificates). */
  readonly env?: Readonly<Record<string, string>>;
}

/** Starts the real redis-server, `count` fixture replicas with `--redis`, and the real nginx. */
export async function startCluster(count = 3, options: ClusterOptions = {}): Promise<Cluster> {
  const redis = await startRedisServer();
  const key = randomBytes(32).toString('base64');
  const replicas: FixtureReplica[] = [];
  try {
    for (let index = 0; index < count; index += 1)
      replicas.push(
        await startReplica(redis.url, { ...options.env, RONDO_STATE_KEY: key }, await freePort()),
      );
    const nginx = await startNginx({ upstreams: replicas.map((replica) => replica.port) });
    return {
      url: `${nginx.url}/mcp`,
      redis,
      nginx,
      replicas,
      served: async () => parseAccessLog(await readFile(join(nginx.prefix, 'access.log'), 'utf8')),
      async stop() {
        await nginx.stop();
        await Promise.all(replicas.map((replica) => replica.kill('SIGTERM')));
        await redis.stop();
      },
    };
  } catch (failure) {
    await Promise.all(replicas.map((replica) => replica.kill()));
    await redis.stop();
    throw failure;
  }
}

async function startReplica(
  redisUrl: string,
  env: Readonly<Record<string, string>>,
  port: number,
): Promise<FixtureReplica> {
  let child: ChildProcess | undefined;
  const replica: FixtureReplica = {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    async kill(signal = 'SIGKILL') {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill(signal);
      await exited;
    },
    async start() {
      child = await launchFixture(redisUrl, env, port);
    },
  };
  await replica.start();
  return replica;
}

/** Starts a fixture with `--redis` on `port`; resolves once it says it is serving. */
function launchFixture(
  redisUrl: string,
  env: Readonly<Record<string, string>>,
  port: number,
): Promise<ChildProcess> {
  const args = [FIXTURE, '--transport', 'http', '--port', String(port), '--redis', redisUrl];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    // Generous: three test files run at once, and a Node process starting on two busy cores is slow.
    const timer = setTimeout(
      () => reject(new Error(`replica did not start:\n${output}`)),
      scaled(40_000),
    );
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('serving http')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`replica exited with ${code}:\n${output}`));
    });
  });
}

/** Lines of the `rondo` log format: `<method> <status> "<upstream addresses>" <time>`. */
export function parseAccessLog(text: string): [string, number, number][] {
  return [...text.matchAll(/^(\S+) (\d+) "([^"]*)"/gm)].map(([, method, status, upstream]) => {
    // A retried request lists every upstream tried ("a:1, b:2"); the last one served it.
    const served = upstream!.split(',').at(-1)?.trim() ?? '';
    return [method!, Number(status), Number(served.split(':').at(-1))];
  });
}
