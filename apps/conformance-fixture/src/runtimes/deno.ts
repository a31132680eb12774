import { createFixtureHandler, parseListenArgs } from './fetchFixture.js';

/** The part of Deno's API this entry uses. */
declare const Deno: {
  args: string[];
  serve(
    options: { port: number; hostname: string; onListen(address: { port: number }): void },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
};

// `deno run --allow-net --allow-env dist/runtimes/deno.js --port N`: the fixture on Deno.
const { port, host } = parseListenArgs(Deno.args);
const handler = createFixtureHandler();
Deno.serve(
  {
    port,
    hostname: host,
    onListen: (address) =>
      console.error(`rondo-fixture (deno): serving http at http://${host}:${address.port}/mcp`),
  },
  (request) => handler(request),
);
