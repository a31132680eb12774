import { z } from 'zod';
import { createServer, text } from '@rondo/core';
import { composeEndpoint } from '@rondo/server/endpoint';
import { createFetchHandler, type FetchHandler } from '@rondo/server/fetch';

/** The Worker's bindings (wrangler.toml `[vars]` and secrets). */
interface Env {
  ALLOWED_HOSTS: string;
  /** At least 32 bytes; every isolate must seal requestState with the same key. */
  RONDO_STATE_KEY?: string;
}

function createHandler(env: Env): FetchHandler {
  const server = createServer({
    name: 'worker-example',
    version: '1.0.0',
    ...(env.RONDO_STATE_KEY ? { requestState: { key: env.RONDO_STATE_KEY } } : {}),
  }).tool(
    'add',
    { description: 'Adds two numbers', input: z.object({ a: z.number(), b: z.number() }) },
    ({ a, b }) => text(String(a + b)),
  );
  // The modern era only: it is stateless, so any isolate can answer any request.
  const endpoint = composeEndpoint(server, { legacy: false });
  return createFetchHandler(endpoint, { allowedHosts: env.ALLOWED_HOSTS.split(',') });
}

let handler: FetchHandler | undefined;

export default {
  // Made on the first request: a Worker may not generate random numbers while its module loads.
  fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    handler ??= createHandler(env);
    // Work that outlives the response (a task's run) is kept alive through ctx.waitUntil.
    return handler(request, { waitUntil: (work) => ctx.waitUntil(work) });
  },
};

/** The part of the Worker's execution context the entry uses. */
interface ExecutionContext {
  waitUntil(work: Promise<unknown>): void;
}
