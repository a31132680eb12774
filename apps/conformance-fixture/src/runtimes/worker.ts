import type { FetchHandler } from '@rondo/transport-http/fetch';
import { createFixtureHandler } from './fetchFixture.js';

let handler: FetchHandler | undefined;

/**
 * The fixture as a Cloudflare Worker (module syntax). The handler is made on the first request:
 * a Worker may not generate random numbers (the requestState key, session ids) while its module
 * loads. The isolate keeps it between requests, but production Workers run many isolates: the
 * modern era is stateless and serves from any of them; legacy sessions need one place to live.
 */
export default {
  fetch(request: Request): Promise<Response> {
    handler ??= createFixtureHandler();
    return handler(request);
  },
};
