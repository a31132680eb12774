#!/usr/bin/env node
import { createRedisState } from '@rondo/redis';
import { ConfigurationError, SharedStateError } from '@rondo/core';
import { serve } from '@rondo/server';
import { parseFixtureArgs, USAGE, UsageError, type FixtureArgs } from './cliArgs.js';
import { createFixtureEndpoint } from './endpoint.js';
import { fixtureTokenAuth } from './fixtureTokens.js';

/**
 * The fixture CLI: `rondo-fixture --transport stdio|http|ws [--port N] [--host H] [--path P]
 * [--allowed-hosts H1,H2] [--state-keys ID:SECRET,...] [--redis URL]`. On stdio, stdout carries nothing but
 * JSON-RPC lines; every diagnostic goes to stderr. Exit codes: 2 on a usage mistake, 1 when the
 * server cannot start (a configuration error such as a short requestState key).
 */
async function main(argv: readonly string[]): Promise<void> {
  let args: FixtureArgs;
  try {
    args = parseFixtureArgs(argv, process.env);
  } catch (failure) {
    if (!(failure instanceof UsageError)) throw failure;
    process.stderr.write(`rondo-fixture: ${failure.message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`, () => process.exit(0));
    return;
  }
  // Replicas behind one balancer share their state in Redis; one process needs none.
  const shared = args.redis ? await createRedisState({ url: args.redis }) : undefined;
  const endpoint = createFixtureEndpoint({
    ...(args.stateKeys ? { requestState: { keys: args.stateKeys } } : {}),
    ...(shared ? { shared } : {}),
    events: {
      ...(args.allowPrivateCallbacks ? { allowPrivateCallbacks: true } : {}),
      // Replicas share test_event's buffer, its webhooks and the keys its cursors are sealed with.
      ...(shared ? { log: shared.occurrences, webhookStore: shared.webhooks } : {}),
      ...(args.stateKeys ? { cursors: { keys: args.stateKeys } } : {}),
    },
  });
  const options = {
    host: args.host,
    port: args.port,
    ...(args.path ? { path: args.path } : {}),
    stopOnSignals: ['SIGINT', 'SIGTERM'] as const,
    // The line below says where it serves, in this command's words.
    quiet: true,
  };
  const server =
    args.transport === 'stdio'
      ? await serve(endpoint, { ...options, transport: 'stdio' })
      : await serve(endpoint, {
          ...options,
          transport: args.transport,
          ...(args.allowedHosts ? { allowedHosts: args.allowedHosts } : {}),
          // Static test tokens give requests principals (webhook subscriptions need one).
          ...(args.tokens ? { auth: fixtureTokenAuth(args.tokens) } : {}),
        });
  const where = server.url ? ` at ${server.url}` : '';
  process.stderr.write(`rondo-fixture: serving ${args.transport}${where}\n`);
  await server.closed;
  await endpoint.close();
  await shared?.close();
  // Exit once everything written so far has reached the pipe: leftover timers must not keep us alive.
  process.stdout.write('', () => process.exit(0));
}

main(process.argv.slice(2)).catch((failure: unknown) => {
  // A configuration mistake (or Redis out of reach) is the user's to fix: its message says what.
  const text =
    failure instanceof ConfigurationError || failure instanceof SharedStateError
      ? failure.message
      : failure instanceof Error
        ? (failure.stack ?? failure.message)
        : String(failure);
  process.stderr.write(`rondo-fixture: ${text}\n`);
  process.exit(1);
});
