#!/usr/bin/env node
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { authFromFlags } from '@rondo/auth';
import { serveStdio } from '@rondo/server/stdio';
import { createDemoServer, type DemoServer } from './demoServer.js';
import { startDemoHttp } from './httpApp.js';
import { parseDemoOptions, USAGE, type DemoOptions } from './options.js';
import { runSmokeChecks } from './smokeCheck.js';

/** Everything human goes to stderr: in --stdio mode stdout belongs to the protocol. */
function say(line: string): void {
  process.stderr.write(`${line}\n`);
}

const publicDir = join(dirname(fileURLToPath(import.meta.url)), 'public');

async function runHttp(demo: DemoServer, options: DemoOptions): Promise<void> {
  const web = await startDemoHttp(demo.endpoint, {
    host: options.host,
    port: options.port,
    publicDir,
    traffic: demo.traffic,
    ...(options.traffic === undefined ? {} : { showTraffic: options.traffic }),
    ...(options.allowedHosts ? { guard: { allowedHosts: options.allowedHosts } } : {}),
    ...(options.clientAddressHeader ? { clientAddressHeader: options.clientAddressHeader } : {}),
    ...(options.auth ? { auth: authFromFlags(options.auth) } : {}),
  });
  // One write, so whoever waits for the URL line also has the notes.
  say(
    [
      `Rondo demo on ${web.url}`,
      `  playground  ${web.url}/`,
      `  MCP (HTTP)  ${web.url}/mcp   both eras: 2026-07-28 and 2025-11-25 / 2025-06-18`,
      `  WebSocket   ${web.url.replace(/^http/, 'ws')}/ws   subprotocol "mcp"`,
      web.traffic
        ? `  traffic     ${web.url}/traffic   what the server saw (JSON; /traffic/stream as SSE)`
        : `  traffic     off (--traffic shows every client's calls to anyone who can connect)`,
      ...demo.notices.map((notice) => `  note: ${notice}`),
    ].join('\n'),
  );
  const stop = () => {
    say('Rondo demo: stopping');
    void web
      .close()
      .then(() => demo.close())
      .then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function runSmoke(demo: DemoServer, options: DemoOptions): Promise<number> {
  const web = await startDemoHttp(demo.endpoint, {
    host: options.host,
    port: options.port,
    publicDir,
    traffic: demo.traffic,
  });
  say(`Rondo demo smoke run on ${web.url}`);
  for (const notice of demo.notices) say(`  note: ${notice}`);
  const results = await runSmokeChecks(web.url);
  for (const result of results)
    say(`  ${result.ok ? 'ok  ' : 'FAIL'} ${result.name}: ${result.detail}`);
  await web.close();
  await demo.close();
  const failed = results.filter((result) => !result.ok).length;
  say(`Rondo demo smoke: ${results.length - failed} of ${results.length} checks passed`);
  return failed === 0 ? 0 : 1;
}

async function main(): Promise<void> {
  const options = parseDemoOptions(process.argv.slice(2), process.env);
  if (options.mode === 'help') {
    say(USAGE);
    return;
  }
  const demo = await createDemoServer({
    withoutProlog: options.withoutProlog,
    clockIntervalMs: options.clockIntervalMs,
    ...(options.redis ? { redis: options.redis } : {}),
    ...(options.stateKeys ? { stateKeys: options.stateKeys } : {}),
  });
  switch (options.mode) {
    case 'stdio':
      for (const notice of demo.notices) say(`rondo-demo: ${notice}`);
      // The host stops us by closing stdin; then the Prolog workers must go too.
      await serveStdio(demo.endpoint).closed;
      await demo.close();
      return;
    case 'smoke':
      process.exit(await runSmoke(demo, options));
      return;
    case 'http':
      await runHttp(demo, options);
      return;
  }
}

main().catch((failure: unknown) => {
  say(`rondo-demo: ${failure instanceof Error ? failure.message : String(failure)}`);
  process.exit(1);
});
