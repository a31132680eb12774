import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { createEndpoint, createServer } from '@rondo/core';
import { createFetchHandler } from '@rondo/transport-http/fetch';
import { addNativeTools } from './nativeTools.js';

/** The part of Bun's API this server uses. */
declare const Bun: {
  argv: string[];
  serve(options: {
    port: number;
    hostname: string;
    idleTimeout: number;
    fetch(request: Request): Promise<Response>;
  }): { port: number };
};

/**
 * Rondo's fetch handler on Bun (`Bun.serve`), with the native tools: run by `bunHost.js`, which
 * the orchestrator forks, since Bun does not speak Node's IPC. Prints `port N` once listening.
 *
 *   bun bunServer.js [--tools N]
 */
const toolsFlag = Bun.argv.indexOf('--tools');
const fillers = toolsFlag > 0 ? Number(Bun.argv[toolsFlag + 1] ?? '0') : 0;
const server = createServer({
  name: 'rondo-bench',
  version: '1.0.0',
  pageSize: Math.max(100, fillers + 2),
  log: (level, message) => level === 'error' && console.error(message),
});
addNativeTools(server, fillers);
const endpoint = createEndpoint(server, {
  modern: modernEra({ alsoSupported: ['2025-11-25', '2025-06-18'] }),
  legacy: legacyEra(),
});
await endpoint.ready();
const handler = createFetchHandler(endpoint, { keepAliveMs: 0 });
const listening = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  idleTimeout: 0,
  fetch: (request) => handler(request),
});
console.log(`port ${listening.port}`);
