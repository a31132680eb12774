#!/usr/bin/env node
// `pnpm cluster [--port N] [--replicas N] [--no-prolog] [--app demo|fixture]`: Rondo scaled out on one machine, to try
// it. Starts Debian's redis-server on a free port, demo replicas (apps/demo, built) on free ports,
// each with `--redis` and one shared generated RONDO_STATE_KEY, and the real nginx in front of them
// with the deploy kit's site (deploy/nginx/rondo.conf) on 127.0.0.1:N (default 8080). Prints the
// URL and each process's pid, so you can kill a replica (or Redis) and watch what happens.
// Ctrl-C stops everything. Needs redis-server and nginx: `bash tooling/scripts/bootstrap.sh --cluster`.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort, nginxBinary, startNginx } from './nginx.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// The replicas each app runs as: the demo (default) or the conformance fixture (the conformance
// suite runs against a cluster of those: `pnpm conformance --fixture cluster`).
const APPS = {
  demo: {
    main: join(root, 'apps/demo/dist/main.js'),
    args: (port, redisUrl, withoutProlog) => [
      ...['--host', '127.0.0.1', '--port', String(port), '--redis', redisUrl],
      ...(withoutProlog ? ['--no-prolog'] : []),
    ],
    ready: /^Rondo demo on (http:\S+)/,
  },
  fixture: {
    main: join(root, 'apps/conformance-fixture/dist/main.js'),
    args: (port, redisUrl) => [
      ...[
        '--transport',
        'http',
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--redis',
        redisUrl,
      ],
    ],
    ready: /serving http at (http:\S+)/,
  },
};
const USAGE =
  'usage: pnpm cluster [--port N (default 8080, 0 for a free one)] [--replicas N (default 3)] [--no-prolog]\n' +
  '                    [--app demo|fixture (default demo)]';

function say(line) {
  process.stderr.write(`${line}\n`);
}

function parseArguments(argv) {
  const options = { port: 8080, replicas: 3, withoutProlog: false, app: APPS.demo };
  for (let index = 0; index < argv.length; index += 1) {
    const [flag, inline] = argv[index].split('=', 2);
    const number = () => Number(inline ?? argv[++index]);
    if (flag === '--port') options.port = number();
    else if (flag === '--replicas') options.replicas = number();
    else if (flag === '--no-prolog') options.withoutProlog = true;
    else if (flag === '--app') {
      const name = inline ?? argv[++index];
      options.app = APPS[name];
      if (!Object.hasOwn(APPS, name)) throw new Error(`--app must be demo or fixture\n${USAGE}`);
    } else throw new Error(`unknown argument "${argv[index]}"\n${USAGE}`);
  }
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535)
    throw new Error(`--port must be a port number\n${USAGE}`);
  if (!Number.isInteger(options.replicas) || options.replicas < 1 || options.replicas > 16)
    throw new Error(`--replicas must be an integer from 1 to 16\n${USAGE}`);
  return options;
}

/** What is missing to run the cluster, each with how to get it. */
function missingParts(app) {
  const missing = [];
  const runs = (command, args) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;
  if (!runs('redis-server', ['--version'])) missing.push('redis-server');
  if (!runs(nginxBinary(), ['-v'])) missing.push('nginx');
  const packages = missing.length
    ? [
        `${missing.join(' and ')} not found; install with: bash tooling/scripts/bootstrap.sh --cluster ` +
          `(or: sudo apt-get install -y ${missing.join(' ')})`,
      ]
    : [];
  return existsSync(app.main)
    ? packages
    : [...packages, `${app.main} is not built; run: pnpm build`];
}

/**
 * Spawns a child and resolves once one of its output lines matches `ready` (with the match), or
 * rejects when it exits first or `timeoutMs` passes. Later lines are shown prefixed with `name`.
 */
function startChild(name, command, args, { env, ready, stream, timeoutMs }) {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`${name} did not start within ${timeoutMs} ms`)),
      timeoutMs,
    );
    let started = false;
    let announcing = false;
    const fail = (error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n${lines.slice(-20).join('\n')}`.trimEnd()));
    };
    child.once('error', fail);
    child.once('exit', (code, signal) => {
      if (!started) fail(new Error(`${name} exited (${signal ?? `code ${code}`}) while starting`));
    });
    for (const output of [child.stdout, child.stderr]) {
      createInterface({ input: output }).on('line', (line) => {
        // The rest of a replica's announcement (its own URLs) arrives with its first line; the
        // cluster's summary replaces it, and only its notes (SWI-Prolog missing, say) are kept.
        if (announcing && !line.includes('note:')) return;
        if (started) return say(`[${name}] ${line}`);
        lines.push(line);
        const match = output === child[stream] ? ready.exec(line) : null;
        if (!match) return;
        started = true;
        announcing = true;
        setImmediate(() => (announcing = false));
        clearTimeout(timer);
        resolve({ name, child, match });
      });
    }
  });
}

/**
 * Starts a child on a free port, and on another when the port was taken between the probe and the
 * child's bind (EADDRINUSE): on a busy machine another process can take it in that gap.
 */
async function onFreePort(start) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await start(await freePort());
    } catch (error) {
      const taken = /EADDRINUSE|Address already in use/.test(error.message);
      if (!taken || attempt === 3) throw error;
    }
  }
}

function startRedis(folder) {
  return onFreePort((port) => startRedisOn(folder, port));
}

async function startRedisOn(folder, port) {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const redis = await startChild('redis', 'redis-server', [...args, '--dir', folder], {
    ready: /Ready to accept connections/,
    stream: 'stdout',
    timeoutMs: 10_000,
  });
  return { ...redis, url: `redis://127.0.0.1:${port}` };
}

function startReplica(app, index, redisUrl, stateKey, withoutProlog) {
  return onFreePort((port) => startReplicaOn(app, index, redisUrl, stateKey, withoutProlog, port));
}

async function startReplicaOn(app, index, redisUrl, stateKey, withoutProlog, port) {
  const args = [app.main, ...app.args(port, redisUrl, withoutProlog)];
  const replica = await startChild(`replica${index}`, process.execPath, args, {
    env: { RONDO_STATE_KEY: stateKey },
    ready: app.ready,
    stream: 'stderr',
    timeoutMs: 60_000,
  });
  return { ...replica, port, url: replica.match[1] };
}

/** Stops a child with SIGTERM, then SIGKILL after 2 s (whoever stops us may not wait longer). */
async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const late = setTimeout(() => child.kill('SIGKILL'), 2000);
  await exited;
  clearTimeout(late);
}

function printSummary(nginx, replicas, redis) {
  say(
    [
      `Rondo cluster on ${nginx.url}   (nginx round robin over ${replicas.length} replicas, state in Redis)`,
      `  playground  ${nginx.url}/`,
      `  MCP (HTTP)  ${nginx.url}/mcp   both eras`,
      `  WebSocket   ${nginx.url.replace(/^http/, 'ws')}/ws`,
      `  nginx       pid ${nginx.pid}   config and logs in ${nginx.prefix}`,
      ...replicas.map(
        (replica) => `  ${replica.name}    pid ${replica.child.pid}   ${replica.url}`,
      ),
      `  redis       pid ${redis.child.pid}   ${redis.url}`,
      'Kill a replica (kill -9 <pid>) and the sessions go on through the others. Ctrl-C stops all.',
    ].join('\n'),
  );
}

/** Reports a child that ends while the cluster runs; the others keep serving. */
function watchChild({ name, child }, isStopping) {
  child.once('exit', (code, signal) => {
    // Ctrl-C reaches the whole terminal's process group: a child may end a moment before this
    // process handles its own SIGINT, and that is no news.
    setTimeout(() => {
      if (isStopping()) return;
      const how = signal ?? `code ${code}`;
      say(`[${name}] exited (${how})${name === 'redis' ? '' : '; nginx now skips it'}`);
    }, 100);
  });
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const missing = missingParts(options.app);
  if (missing.length) {
    for (const line of missing) say(`pnpm cluster: ${line}`);
    process.exit(1);
  }
  const folder = await mkdtemp(join(tmpdir(), 'rondo-cluster-'));
  const running = [];
  let nginx;
  let stopping = false;
  const stopAll = async () => {
    stopping = true;
    await nginx?.stop();
    await Promise.all(
      running.filter(({ name }) => name !== 'redis').map(({ child }) => stopChild(child)),
    );
    await Promise.all(
      running.filter(({ name }) => name === 'redis').map(({ child }) => stopChild(child)),
    );
    await rm(folder, { recursive: true, force: true });
  };
  try {
    const redis = await startRedis(folder);
    running.push(redis);
    const stateKey = randomBytes(32).toString('hex');
    const starts = await Promise.allSettled(
      Array.from({ length: options.replicas }, (_, index) =>
        startReplica(options.app, index + 1, redis.url, stateKey, options.withoutProlog),
      ),
    );
    const replicas = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
    running.push(...replicas);
    const failed = starts.find((start) => start.status === 'rejected');
    if (failed) throw failed.reason;
    nginx = await startNginx({
      upstreams: replicas.map((replica) => replica.port),
      port: options.port === 0 ? undefined : options.port,
    });
    for (const part of running) watchChild(part, () => stopping);
    printSummary(nginx, replicas, redis);
  } catch (error) {
    await stopAll();
    throw error;
  }
  const stop = () => {
    say('Rondo cluster: stopping');
    void stopAll().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((failure) => {
  say(`pnpm cluster: ${failure instanceof Error ? failure.message : String(failure)}`);
  process.exit(1);
});
