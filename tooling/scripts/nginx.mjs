// Runs the real nginx in front of local Rondo replicas with the deploy kit's own site file
// (deploy/nginx/rondo.conf): only its upstream `server` lines and its `listen` line are replaced, so
// the tests (test/support/nginx.ts) and `pnpm cluster` exercise what users deploy. nginx runs as
// the current user with every file it writes (pid, logs, temp files) in a fresh temp folder.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The site file of the deploy kit, included in nginx's http context. */
export const DEPLOY_SITE = join(root, 'deploy/nginx/rondo.conf');

const UPSTREAM_BLOCK = /^upstream rondo_replicas \{\n([\s\S]*?)^\}/m;
const SERVER_LINE = /^([ \t]*)server[ \t]+\S+([^;\n]*);[ \t]*\n/gm;
const LISTEN_LINE = /^([ \t]*)listen[ \t]+80;/gm;

/** A deploy site file this module no longer knows how to point at local replicas. */
export class NginxTemplateError extends Error {
  name = 'NginxTemplateError';
}

/**
 * The deploy site with its upstream pointed at `upstreams` ("host:port" each) and its server
 * listening on `listen` ("host:port"). The parameters of the template's `server` lines
 * (max_fails, fail_timeout) are kept, so failure handling is the deployed one.
 */
export function renderSite(template, { upstreams, listen }) {
  if (upstreams.length === 0) throw new NginxTemplateError('at least one upstream is needed');
  const block = UPSTREAM_BLOCK.exec(template);
  if (!block) throw new NginxTemplateError('the site has no "upstream rondo_replicas { … }" block');
  const servers = [...block[1].matchAll(SERVER_LINE)];
  const parameters = new Set(servers.map((line) => line[2]));
  if (servers.length === 0 || parameters.size !== 1) {
    throw new NginxTemplateError(
      'the upstream block must list its replicas as "server host:port <same parameters>;" lines',
    );
  }
  const [indent, params] = [servers[0][1], servers[0][2]];
  const generated = upstreams.map((address) => `${indent}server ${address}${params};\n`).join('');
  let placed = false;
  const body = block[1].replace(SERVER_LINE, () => {
    if (placed) return '';
    placed = true;
    return generated;
  });
  const site = template.replace(block[0], () => block[0].replace(block[1], () => body));
  const listens = [...site.matchAll(LISTEN_LINE)];
  if (listens.length !== 1) {
    throw new NginxTemplateError(
      `the site must have one "listen 80;" line, found ${listens.length}`,
    );
  }
  return site.replace(LISTEN_LINE, (_line, pad) => `${pad}listen ${listen};`);
}

/** The main configuration around the site: one worker, every path inside `prefix`. */
export function renderMainConfig(prefix) {
  const path = (name) => join(prefix, name);
  return [
    'worker_processes 1;',
    `pid ${path('nginx.pid')};`,
    `error_log ${path('error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    // Which replica served each request, for trying a cluster out and for the tests that check it.
    `    log_format rondo '$request_method $status "$upstream_addr" $request_time';`,
    `    access_log ${path('access.log')} rondo;`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
      (kind) => `    ${kind}_temp_path ${path(`${kind}_temp`)};`,
    ),
    `    include ${path('site.conf')};`,
    '}',
    '',
  ].join('\n');
}

/** The nginx binary: RONDO_NGINX, Debian's /usr/sbin/nginx, or `nginx` on the PATH. */
export function nginxBinary(env = process.env) {
  if (env.RONDO_NGINX) return env.RONDO_NGINX;
  return existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
}

/** A free TCP port on 127.0.0.1, released again for the caller to bind. */
export async function freePort() {
  const server = createServer();
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts nginx on 127.0.0.1 (a free port unless `port` is given) in front of `upstreams`, ports of
 * servers on 127.0.0.1. Resolves once nginx has bound its port (it writes its pid file after
 * that); rejects with nginx's own error when it exits first. `stop()` ends it (SIGTERM, then
 * SIGKILL of its process group after 3 s) and removes its folder.
 */
export async function startNginx(options) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await launchNginx(options);
    } catch (error) {
      // A port that was free a moment ago can be taken before nginx binds it: pick another.
      const taken = /Address already in use/.test(error.message);
      if (options.port !== undefined || !taken || attempt === 3) throw error;
    }
  }
}

async function launchNginx({ upstreams, port, binary = nginxBinary() }) {
  const prefix = await mkdtemp(join(tmpdir(), 'rondo-nginx-'));
  // When run as root, nginx's workers run as an unprivileged user and must reach the temp paths.
  await chmod(prefix, 0o755);
  const template = await readFile(DEPLOY_SITE, 'utf8');
  const listenPort = port ?? (await freePort());
  const site = renderSite(template, {
    upstreams: upstreams.map((upstream) => `127.0.0.1:${upstream}`),
    listen: `127.0.0.1:${listenPort}`,
  });
  await writeFile(join(prefix, 'site.conf'), site);
  await writeFile(join(prefix, 'nginx.conf'), renderMainConfig(prefix));
  const args = ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', join(prefix, 'error.log')];
  const child = spawn(binary, [...args, '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  const failure = new Promise((resolve) => child.once('error', resolve));
  const cleanUp = () => rm(prefix, { recursive: true, force: true });
  try {
    await untilRunning(child, join(prefix, 'nginx.pid'), exited, failure, () => stderr, prefix);
  } catch (error) {
    await cleanUp();
    throw error;
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const late = setTimeout(() => killGroup(child.pid), 3000);
      await exited;
      clearTimeout(late);
    }
    await cleanUp();
  };
  return {
    url: `http://127.0.0.1:${listenPort}`,
    port: listenPort,
    pid: child.pid,
    prefix,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

async function untilRunning(child, pidFile, exited, failure, stderr, prefix) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const outcome = await Promise.race([
      exited.then((end) => ({ end })),
      failure.then((error) => ({ error })),
      sleep(10).then(() => ({})),
    ]);
    if (outcome.error) {
      throw new Error(
        `could not run nginx (${outcome.error.message}); install it with ` +
          '`bash tooling/scripts/bootstrap.sh --tests` or apt-get install -y nginx, or set RONDO_NGINX',
      );
    }
    if (outcome.end) {
      const log = await readFile(join(prefix, 'error.log'), 'utf8').catch(() => '');
      const ended = outcome.end.signal ?? `code ${outcome.end.code}`;
      throw new Error(`nginx exited (${ended}) before serving:\n${stderr()}${log}`.trimEnd());
    }
    const written = await readFile(pidFile, 'utf8').catch(() => '');
    if (written.trim() === String(child.pid)) return;
    if (Date.now() > deadline) {
      killGroup(child.pid);
      throw new Error(`nginx did not start within 10 s:\n${stderr()}`);
    }
  }
}
