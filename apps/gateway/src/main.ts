#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { ConfigurationError, SharedStateError } from '@rondo/core';
import { HELP, USAGE, UsageError, parseGatewayArgs, type GatewayArgs } from './cliArgs.js';
import { readGatewayCatalog, type GatewayCatalog } from './catalogConfig.js';
import { ConfigError, readConfig, type GatewayEntry } from './config.js';
import { reloadOnRequest } from './configReloads.js';
import { GatewayLog } from './logger.js';
import { StartError, checkPorts } from './portCheck.js';

/** The package's version, for `--version`. */
function version(): string {
  const manifest = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  return (JSON.parse(manifest) as { version: string }).version;
}

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
    if (args.help || args.version) {
      const text = args.help ? HELP : `rondo-gateway ${version()}`;
      process.stdout.write(`${text}\n`, () => process.exit(0));
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
  // The serving and checking code load only now: a mistake or a port in use is told at once.
  if (args.command === 'check') {
    const { checkEntries } = await import('./check.js');
    // A line per entry as soon as it is known: a slow upstream holds back only its own line.
    const lines = await checkEntries(entries, ({ line }) => process.stdout.write(`${line}\n`));
    const code = lines.every((line) => line.ok) ? 0 : 1;
    process.stdout.write('', () => process.exit(code));
    return;
  }
  await checkPorts(args);
  const { serveGateway, actingWithoutAuth } = await import('./serveGateway.js');
  const log = new GatewayLog(args.logFormat, args.logLevel);
  const { gateway, running, shared, audit } = await serveGateway(args, entries, log, catalog);
  const stopReloading = reloadOnRequest(args.config, gateway, log, {
    watch: args.watch,
    refuse: (next) => actingWithoutAuth(args, next),
  });
  const stop = (): void => {
    stopReloading();
    void running.close().catch(() => undefined);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await running.closed;
  await gateway.endpoint.close();
  await shared?.close();
  await audit?.close();
  process.stdout.write('', () => process.exit(0));
}

function say(line: string): void {
  process.stderr.write(`rondo-gateway: ${line}\n`);
}

main(process.argv.slice(2)).catch((failure: unknown) => {
  const text =
    failure instanceof ConfigurationError ||
    failure instanceof SharedStateError ||
    failure instanceof StartError
      ? failure.message
      : failure instanceof Error
        ? (failure.stack ?? failure.message)
        : String(failure);
  say(text);
  process.exit(1);
});
