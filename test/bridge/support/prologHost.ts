import { createLogtalkHost, type LogtalkHost } from '@rondo/logtalk-host';
import type { LogtalkHostOptions } from '@rondo/logtalk-host';
import { expect } from 'vitest';
import { WireClient } from './wireClient.js';

/** A Prolog provider hosted in this process, with the clients a test opened on it. */
export interface HostedProlog extends LogtalkHost {
  /** Lines the workers and the bridge logged (`#<worker> <source>: <message>`). */
  log: string[];
  clients: WireClient[];
  /** A modern client (its capabilities declared on every request). */
  modern(capabilities?: Record<string, unknown>): WireClient;
  /** A legacy client after the handshake. */
  legacy(
    revision?: '2025-06-18' | '2025-11-25',
    capabilities?: Record<string, unknown>,
  ): Promise<WireClient>;
  /** Validates what the server wrote to every client so far against each one's schema, and closes them. */
  checkClients(): void;
  close(): Promise<void>;
}

/** Hosts Prolog files exactly as `rondo-logtalk` does, but in this process (endpoint in memory). */
export async function hostProlog(
  files: string[],
  options: Partial<LogtalkHostOptions> = {},
): Promise<HostedProlog> {
  const log: string[] = [];
  const host = await createLogtalkHost({
    files,
    workers: 2,
    timeoutMs: 10_000,
    shutdownGraceMs: 500,
    onLog: (entry) => log.push(`#${entry.workerId ?? '-'} ${entry.source}: ${entry.message}`),
    serverLog: (level, message) => log.push(`server ${level}: ${message}`),
    ...options,
  });
  const clients: WireClient[] = [];
  return {
    ...host,
    log,
    clients,
    modern(capabilities = {}) {
      const client = WireClient.modern(host.endpoint, capabilities);
      clients.push(client);
      return client;
    },
    async legacy(revision = '2025-11-25', capabilities = {}) {
      const client = await WireClient.legacy(host.endpoint, revision, capabilities);
      clients.push(client);
      return client;
    },
    checkClients() {
      for (const client of clients.splice(0)) {
        client.close();
        expect(client.problems(), `${client.revision} wire`).toEqual([]);
      }
    },
    close: () => host.endpoint.close(),
  };
}
