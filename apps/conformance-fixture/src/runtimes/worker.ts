import type { FetchHandler } from '@rondo/server/fetch';
import { createFixtureHandler } from './fetchFixture.js';

let handler: FetchHandler | undefined;

/**
 * The fixture as a Cloudflare Worker (module syntax). The handler is made on the first request:
 * a Worker may not generate random numbers (the requestState key, session ids) while its module
 * loads. The isolate keeps it between requests, but production Workers run many isolates: the
 * modern era is stateless and serves from any of them; legacy sessions need one place to live.
 */
export default {
  fetch(request: Request, _env: unknown, ctx: WorkerContext): Promise<Response> {
    handler ??= createFixtureHandler();
    // A task runs on after the response that created it; the Worker stops it unless told to wait.
    return handler(request, { waitUntil: (work) => ctx.waitUntil(work) });
  },
};

/** The part of a Worker's `ExecutionContext` the fixture uses. */
interface WorkerContext {
  waitUntil(work: Promise<unknown>): void;
}
