#!/usr/bin/env node
import type { Endpoint } from '@rondo/core';
import { serveStdio } from '@rondo/transport-stdio';
import { parseFixtureArgs, USAGE, UsageError, type FixtureArgs } from './cliArgs.js';
import { createFixtureEndpoint } from './endpoint.js';

/**
 * The fixture CLI: `rondo-fixture --transport stdio|http|ws [--port N] [--host H] [--path P]`.
 * On stdio, stdout carries nothing but JSON-RPC lines; every diagnostic goes to stderr.
 */
async function main(argv: readonly string[]): Promise<void> {
  let args: FixtureArgs;
  try {
    args = parseFixtureArgs(argv);
  } catch (failure) {
    if (!(failure instanceof UsageError)) throw failure;
    process.stderr.write(`rondo-fixture: ${failure.message}\n${USAGE}\n`);
    process.exit(2);
  }
  const endpoint = createFixtureEndpoint();
  await endpoint.ready();
  if (args.transport === 'stdio') return serveOnStdio(endpoint);
  const handle = await listen(endpoint, args);
  process.stderr.write(`rondo-fixture: serving ${args.transport} at ${handle.url}\n`);
  const stop = () => {
    void handle
      .close()
      .then(() => endpoint.close())
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function serveOnStdio(endpoint: Endpoint): Promise<void> {
  const server = serveStdio(endpoint);
  process.once('SIGTERM', () => void server.close());
  process.once('SIGINT', () => void server.close());
  process.stderr.write('rondo-fixture: serving stdio\n');
  await server.closed;
  await endpoint.close();
  // Exit once everything written so far has reached the pipe: leftover timers must not keep us alive.
  process.stdout.write('', () => process.exit(0));
}

/** The network transports are loaded only when asked for, so stdio never loads express or ws. */
async function listen(
  endpoint: Endpoint,
  args: FixtureArgs,
): Promise<{ url: string; close(): Promise<void> }> {
  const where = { host: args.host, port: args.port, ...(args.path ? { path: args.path } : {}) };
  if (args.transport === 'http') {
    const { serveHttp } = await import('@rondo/transport-http');
    return serveHttp(endpoint, where);
  }
  const { serveWebSocket } = await import('@rondo/transport-ws');
  return serveWebSocket(endpoint, where);
}

main(process.argv.slice(2)).catch((failure: unknown) => {
  process.stderr.write(
    `rondo-fixture: ${failure instanceof Error ? (failure.stack ?? failure.message) : String(failure)}\n`,
  );
  process.exit(1);
});
