import { createFixtureEndpoint } from '@rondo/conformance-fixture';
import { serve } from '@rondo/server';
import { reportReady } from './control.js';

/**
 * The conformance fixture (`apps/conformance-fixture`) served on stdio as its CLI serves it
 * (`rondo-fixture --transport stdio`: the same endpoint through the same `serve()`): a server with
 * every tool, prompt and resource of the official suite and the Tasks and Skills extensions
 * declared, measured on calls that use none of them.
 *
 *   node fixture.js
 */
const endpoint = createFixtureEndpoint();
const running = await serve(endpoint, {
  transport: 'stdio',
  quiet: true,
  stopOnSignals: ['SIGINT', 'SIGTERM'],
});
reportReady({});
await running.closed;
await endpoint.close();
process.exit(0);
