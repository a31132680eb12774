import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { ServerChild } from '../child.js';
import { argument, reportReady } from './control.js';
import { startBenchRedis } from './redisServer.js';

/**
 * Rondo scaled out, as the deploy kit runs it: a redis-server, `--replicas` Rondo processes
 * (`rondo.js --transport http-node --redis URL`, one shared RONDO_STATE_KEY) and the real nginx in
 * front of them with the kit's own site file (deploy/nginx/rondo.conf, round robin, no affinity),
 * rendered by tooling/scripts/nginx.mjs as the tests and `pnpm cluster` do. Reports nginx's port;
 * its counters are the replicas' summed. All of it is this process's tree, so the orchestrator's
 * CPU time and peak RSS cover the whole deployment.
 *
 * With `--redis none` the replicas keep everything in memory: a control for stateless modern
 * calls (legacy sessions cannot move between such replicas), showing what the balancer and the
 * extra processes cost without Redis.
 *
 *   node replicas.js [--replicas 3] [--redis own|none]
 */

interface RunningNginx {
  port: number;
  pid: number;
  prefix: string;
}

interface NginxModule {
  startNginx: (options: { upstreams: number[] }) => Promise<RunningNginx>;
}

const NGINX_MODULE = new URL('../../../tooling/scripts/nginx.mjs', import.meta.url);

async function main(): Promise<void> {
  const count = Number(argument('replicas', '3'));
  const redis = argument('redis', 'own') === 'none' ? undefined : await startBenchRedis();
  const replicas: ServerChild[] = [];
  const balancers: RunningNginx[] = [];
  // Cleanup must be synchronous: the control channel's disconnect handler exits at once.
  process.once('exit', () => {
    for (const nginx of balancers) killGroup(nginx.pid, nginx.prefix);
    for (const replica of replicas) replica.process.kill('SIGKILL');
    redis?.stop();
  });
  process.once('SIGTERM', () => process.exit(0));
  // Every replica must open the requestState the others seal.
  process.env.RONDO_STATE_KEY ??= randomBytes(32).toString('base64');
  for (let i = 0; i < count; i++) {
    const args = ['--transport', 'http-node', ...(redis ? ['--redis', redis.url] : [])];
    replicas.push(await ServerChild.start({ script: 'rondo', args }));
  }
  const { startNginx } = (await import(NGINX_MODULE.href)) as NginxModule;
  const nginx = await startNginx({ upstreams: replicas.map((r) => r.ready.port ?? 0) });
  balancers.push(nginx);
  reportReady({ port: nginx.port, path: '/mcp' }, async () => {
    if (!redis) return {};
    const counted = await Promise.all(replicas.map((r) => r.counters()));
    return { redisCommands: counted.reduce((sum, c) => sum + (c.redisCommands ?? 0), 0) };
  });
}

/** Ends nginx (started in a process group of its own) and removes its folder. */
function killGroup(pid: number, prefix: string): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
  rmSync(prefix, { recursive: true, force: true });
}

await main();
