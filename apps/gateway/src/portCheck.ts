import { createServer } from 'node:net';
import type { GatewayArgs } from './cliArgs.js';

/** Serving cannot start (a port in use, say): one line, exit code 1. */
export class StartError extends Error {
  override readonly name = 'StartError';
}

/**
 * Throws a {@link StartError} for the first port of `args` (the listener's, `--admin-port`) that
 * cannot be listened on: checked before any upstream starts, and before the serving code loads.
 */
export async function checkPorts(args: GatewayArgs): Promise<void> {
  const ports = args.transport === 'stdio' ? [] : [args.port];
  if (args.adminPort !== undefined) ports.push(args.adminPort);
  for (const port of ports) {
    const problem = await portProblem(args.host, port);
    if (problem !== undefined) throw new StartError(problem);
  }
}

/**
 * Whether `port` on `host` can be listened on now (0 always can): checked before any upstream
 * starts, so a port in use is one line at once rather than a failure after every upstream ran.
 * Resolves to the reason when it cannot (`port 8080 on 127.0.0.1 is in use`).
 */
export function portProblem(host: string, port: number): Promise<string | undefined> {
  if (port === 0) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      resolve(listenProblem(error, host, port)),
    );
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
}

/** A listen error as one sentence naming the port and host. */
export function listenProblem(error: NodeJS.ErrnoException, host: string, port: number): string {
  switch (error.code) {
    case 'EADDRINUSE':
      return `port ${port} on ${host} is in use`;
    case 'EACCES':
      return `port ${port} on ${host} needs privileges this process lacks`;
    case 'EADDRNOTAVAIL':
      return `${host} is not an address of this machine`;
    case undefined:
    default:
      return `cannot listen on ${host}:${port}: ${error.code ?? error.message}`;
  }
}
