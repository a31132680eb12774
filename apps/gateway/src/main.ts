#!/usr/bin/env node
import { authFromFlags } from '@rondo/auth';
import { ConfigurationError, SharedStateError } from '@rondo/core';
import { createRedisState } from '@rondo/redis';
import { serve } from '@rondo/server';
import { checkEntries } from './check.js';
import { HELP, USAGE, UsageError, parseGatewayArgs, type GatewayArgs } from './cliArgs.js';
import { ConfigError, readConfig, type GatewayEntry } from './config.js';
import { readGatewayCatalog, type GatewayCatalog } from './catalogConfig.js';
import { createGateway } from './gateway.js';

/**
 * `rondo-gateway [serving flags] CONFIG.json` and `rondo-gateway check CONFIG.json`. On stdio,
 * stdout carries nothing but JSON-RPC; every diagnostic goes to stderr. Exit codes: 2 for a usage
 * or configuration mistake, 1 when serving cannot start or `check` finds a failed upstream.
 */
async function main(argv: readonly string[]): Promise<void> {
  let args: GatewayArgs;
  let entries: GatewayEntry[];
  let catalog: GatewayCatalog;
  try {
    args = parseGatewayArgs(argv, process.env);
    if (args.help) {
      process.stdout.write(`${HELP}\n`, () => process.exit(0));
      return;
    }
    entries = readConfig(args.config);
    catalog = readGatewayCatalog(args.config, entries);
  } catch (failure) {
    if (failure instanceof UsageError) {
      process.stderr.write(`rondo-gateway: ${failure.message}\n${USAGE}\n`);
      process.exit(2);
    }
    if (failure instanceof ConfigError) {
      say(failure.message);
      process.exit(2);
    }
    throw failure;
  }
  if (args.command === 'check') {
    // A line per entry as soon as it is known: a slow upstream holds back only its own line.
    const lines = await checkEntries(entries, ({ line }) => process.stdout.write(`${line}\n`));
    const code = lines.every((line) => line.ok) ? 0 : 1;
    process.stdout.write('', () => process.exit(code));
    return;
  }
  const shared = args.redis ? await createRedisState({ url: args.redis }) : undefined;
  const gateway = await createGateway(entries, {
    ...(args.stateKeys ? { stateKeys: args.stateKeys } : {}),
    ...(shared ? { shared } : {}),
    catalog,
  });
  const running = await serve(gateway.endpoint, {
    transport: args.transport,
    host: args.host,
    port: args.port,
    ...(args.path ? { path: args.path } : {}),
    ...(args.allowedHosts && args.transport !== 'stdio' ? { allowedHosts: args.allowedHosts } : {}),
    ...(args.clientAddressHeader ? { clientAddressHeader: args.clientAddressHeader } : {}),
    // The parser refused --auth-* on stdio, which `serve` types as taking no `auth`.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc needs it
    ...(args.auth ? { auth: authFromFlags(args.auth) as never } : {}),
    stopOnSignals: ['SIGINT', 'SIGTERM'],
    quiet: true,
  });
  const where = running.url ? ` at ${running.url}` : '';
  say(`serving ${entries.length} upstream(s) on ${args.transport}${where}`);
  await running.closed;
  await gateway.endpoint.close();
  await shared?.close();
  process.stdout.write('', () => process.exit(0));
}

function say(line: string): void {
  process.stderr.write(`rondo-gateway: ${line}\n`);
}

main(process.argv.slice(2)).catch((failure: unknown) => {
  const text =
    failure instanceof ConfigurationError || failure instanceof SharedStateError
      ? failure.message
      : failure instanceof Error
        ? (failure.stack ?? failure.message)
        : String(failure);
  say(text);
  process.exit(1);
});
