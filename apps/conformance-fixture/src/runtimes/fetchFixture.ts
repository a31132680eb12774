import { createFetchHandler, type FetchHandler } from '@rondo/server/fetch';
import { createFixtureEndpoint } from '../endpoint.js';

/** The fixture's endpoint behind the fetch handler, served at `/mcp`: what every runtime entry serves. */
export function createFixtureHandler(): FetchHandler {
  return createFetchHandler(createFixtureEndpoint());
}

/** Where a runtime entry listens: `--port N` (default 3000) and `--host H` (default 127.0.0.1). */
export interface ListenArgs {
  port: number;
  host: string;
}

/** Reads `--port` and `--host` from a runtime's arguments; anything else is a usage error. */
export function parseListenArgs(argv: readonly string[]): ListenArgs {
  const args: ListenArgs = { port: 3000, host: '127.0.0.1' };
  for (let index = 0; index < argv.length; index += 1) {
    const flag = argv[index];
    const value = argv[index + 1];
    index += 1;
    if (flag === '--port' && value !== undefined && /^\d+$/.test(value)) args.port = Number(value);
    else if (flag === '--host' && value !== undefined) args.host = value;
    else throw new Error(`usage: [--port N] [--host H]; got ${flag ?? ''}`);
  }
  return args;
}
