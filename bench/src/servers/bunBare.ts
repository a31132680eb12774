import { fixedAnswer } from './fixedAnswers.js';

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
 * Bare `Bun.serve`: reads each POST body and answers the same fixed JSON the node:http ceiling
 * sends, with no MCP work; the ceiling of Rondo's fetch handler on Bun. Run by `bunHost.js
 * --server bare`; prints `port N` once listening.
 *
 *   bun bunBare.js [--response echo|list|mrtr] [--tools N]
 */
const flag = (name: string, fallback: string): string => {
  const index = Bun.argv.indexOf(`--${name}`);
  return index > 0 ? (Bun.argv[index + 1] ?? fallback) : fallback;
};
const body = fixedAnswer(flag('response', 'echo'), Number(flag('tools', '1000')));
const headers = { 'content-type': 'application/json' };
const listening = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  idleTimeout: 0,
  fetch: async (request) => {
    await request.text();
    return new Response(body, { headers });
  },
});
console.log(`port ${listening.port}`);
