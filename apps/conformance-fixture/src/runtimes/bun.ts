import { createFixtureHandler, parseListenArgs } from './fetchFixture.js';

/** The part of Bun's API this entry uses. */
declare const Bun: {
  argv: string[];
  serve(options: {
    port: number;
    hostname: string;
    /** Seconds a connection may idle; 0 keeps SSE streams open for as long as they last. */
    idleTimeout: number;
    fetch(request: Request): Promise<Response>;
  }): { port: number };
};

// `bun dist/runtimes/bun.js --port N`: the conformance fixture on Bun, through the fetch handler.
const { port, host } = parseListenArgs(Bun.argv.slice(2));
const handler = createFixtureHandler();
const server = Bun.serve({
  port,
  hostname: host,
  idleTimeout: 0,
  fetch: (request) => handler(request),
});
console.error(`rondo-fixture (bun): serving http at http://${host}:${server.port}/mcp`);
