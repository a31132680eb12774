#!/usr/bin/env node
import {
  ConfigurationError,
  SharedStateError,
  type RondoServer,
  type SharedState,
} from '@rondo/core';
import { authFromFlags } from '@rondo/auth';
import { createRedisState } from '@rondo/redis';
import { serve } from '@rondo/server';
import { HELP, parseHostArgs, USAGE, UsageError, type HostArgs } from './cliArgs.js';
import { runCall, runCheck, startFailureLines } from './devTools.js';
import { answerStartFailure } from './startFailure.js';
import { createLogtalkHost, type LogtalkHostOptions } from './host.js';
import { watchFiles, type WatchReport } from './watch.js';

/**
 * `rondo-logtalk [options] FILE...`: serves a Prolog or Logtalk provider. On stdio, stdout
 * carries nothing but JSON-RPC lines; every diagnostic (and all Prolog output) goes to stderr.
 * Exit codes: 0 after a clean shutdown, 1 when the files fail to load or the server cannot be made
 * (a requestState key shorter than 32 bytes, say), 2 on a usage mistake.
 */
async function main(argv: readonly string[]): Promise<void> {
  const args = parseOrExit(argv);
  if (args.command !== 'serve') return runDevTool(args);
  // Replicas behind one balancer share their state in Redis; one process needs none.
  const shared = args.redis
    ? await exitOnStartFailure(args, () => createRedisState({ url: args.redis! }))
    : undefined;
  const host = await startOrExit(args, shared);
  const unwatch = args.watch
    ? watchFiles(args.files, host.provider, reloadReport(host.server))
    : undefined;
  const server = await serve(host.endpoint, {
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
    // The line below says where it serves, in this command's words.
    quiet: true,
  }).catch(async (failure: unknown) => {
    const line = listenFailureLine(failure, args);
    if (!line) throw failure;
    say(line);
    await host.endpoint.close();
    process.exit(1);
  });
  say(
    `serving ${host.provider.name} over ${args.transport}${server.url ? ` at ${server.url}` : ''}`,
  );
  await server.closed;
  unwatch?.();
  await host.endpoint.close();
  await shared?.close();
  // Exit once everything written has reached the pipe: leftover timers must not keep us alive.
  process.stdout.write('', () => process.exit(0));
}

function parseOrExit(argv: readonly string[]): HostArgs {
  try {
    const args = parseHostArgs(argv, process.env);
    if (args.help) {
      process.stdout.write(`${HELP}\n`);
      process.exit(0);
    }
    return args;
  } catch (failure) {
    if (!(failure instanceof UsageError)) throw failure;
    process.stderr.write(`rondo-logtalk: ${failure.message}\n${USAGE}\n(--help for more)\n`);
    process.exit(2);
  }
}

/** `check` and `call`: their report on stdout, then exit with their code. */
async function runDevTool(args: HostArgs): Promise<void> {
  const output = {
    out: (line: string) => process.stdout.write(`${line}\n`),
    err: (line: string) => say(line),
  };
  const code = await exitOnStartFailure(args, () =>
    args.command === 'check'
      ? runCheck(hostOptions(args), output)
      : runCall(hostOptions(args), args.tool, args.toolArguments ?? {}, output),
  );
  process.stdout.write('', () => process.exit(code));
}

function hostOptions(args: HostArgs): LogtalkHostOptions {
  return {
    files: args.files,
    ...(args.object !== undefined ? { object: args.object } : {}),
    ...(args.workers !== undefined ? { workers: args.workers } : {}),
    ...(args.timeoutSeconds !== undefined ? { timeoutMs: args.timeoutSeconds * 1000 } : {}),
    ...(args.swipl !== undefined ? { swipl: args.swipl } : {}),
    ...(args.logtalkHome !== undefined ? { logtalkHome: args.logtalkHome } : {}),
    ...(args.name !== undefined ? { serverName: args.name } : {}),
    ...(args.description !== undefined ? { serverDescription: args.description } : {}),
    ...(args.title !== undefined ? { serverTitle: args.title } : {}),
    ...(args.watch ? { listChanged: true } : {}),
    ...(args.stateKeys ? { stateKeys: args.stateKeys } : {}),
  };
}

/** Starts the workers; a file that fails to load ends the process with its file, line and message. */
function startOrExit(args: HostArgs, shared: SharedState | undefined) {
  return exitOnStartFailure(args, () =>
    createLogtalkHost({ ...hostOptions(args), ...(shared ? { shared } : {}) }),
  );
}

/** A start that fails with a diagnosis ends the process with it, one line each (as `check`). */
async function exitOnStartFailure<T>(args: HostArgs, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (failure) {
    // A server that cannot be made (a short requestState key) or Redis out of reach: one line too.
    const lines =
      failure instanceof ConfigurationError || failure instanceof SharedStateError
        ? [failure.message]
        : startFailureLines(failure, args.files);
    if (!lines) throw failure;
    for (const line of lines) say(line);
    // Over stdio the client sees only what comes back on stdout: answer its first request too.
    if (args.command === 'serve' && args.transport === 'stdio')
      await answerStartFailure(lines, { input: process.stdin, output: process.stdout });
    process.exit(1);
  }
}

/** A port in use or not ours to take: the user's to fix, so one line, no stack. */
function listenFailureLine(failure: unknown, args: HostArgs): string | undefined {
  const code = (failure as { code?: unknown }).code;
  const where = `${args.host}:${args.port}`;
  if (code === 'EADDRINUSE')
    return `cannot listen on ${where}: the port is in use; pick another with --port (0 picks a free one)`;
  if (code === 'EACCES')
    return `cannot listen on ${where}: permission denied; pick a port above 1023 with --port`;
  if (code === 'EADDRNOTAVAIL')
    return `cannot listen on ${where}: no such address on this machine; check --host`;
  return undefined;
}

/** A failed reload goes to stderr and, at level error, to the legacy sessions that enabled logging. */
function reloadReport(server: RondoServer): WatchReport {
  return {
    reloaded: () => say('reloaded: new calls run on the new code'),
    failed: (message) => {
      const line = `reload failed, still serving the previous code: ${message}`;
      say(line);
      // A 2026-07-28 client has no session-wide log channel: for it, stderr is the only trace.
      server.broadcastLog('error', line, 'rondo-logtalk');
    },
  };
}

function say(message: string): void {
  process.stderr.write(`rondo-logtalk: ${message}\n`);
}

main(process.argv.slice(2)).catch((failure: unknown) => {
  say(failure instanceof Error ? (failure.stack ?? failure.message) : String(failure));
  process.exit(1);
});
