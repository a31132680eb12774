import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { createServer, type RondoServer } from '@rondo/core';
import { createPrologProvider, type PrologProvider } from '@rondo/logtalk-bridge';
import { tracing } from '@rondo/otel';
import { formElicitation, inputRequest, inputRequired, text } from '@rondo/protocol';
import type { SpanRecorder } from '../../packages/otel/test/support/harness.js';

const FORECAST_PL = fileURLToPath(new URL('./fixtures/forecast.pl', import.meta.url));

const colourSchema = {
  type: 'object',
  properties: { colour: { type: 'string', enum: ['red', 'green'] } },
  required: ['colour'],
};

/** The traced test server and the Prolog provider it owns. */
export interface TracedServer {
  server: RondoServer;
  prolog: PrologProvider;
  close(): Promise<void>;
}

/**
 * A server traced by `tracing()` (registered first, so outermost): `get_weather` answers, `colour`
 * asks the client for a colour first (one call per round), a middleware after the tracing one
 * throws for `crash`, and the Prolog tool `forecast` runs on one of two workers.
 */
export async function tracedServer(recorder: SpanRecorder): Promise<TracedServer> {
  const prolog = await createPrologProvider({
    files: [FORECAST_PL],
    workers: 2,
    timeoutMs: 10_000,
    onLog: () => undefined,
  });
  const server = createServer({ name: 'traced', version: '1.0.0', log: () => undefined })
    .tool('get_weather', { input: z.object({ city: z.string() }) }, ({ city }) =>
      text(`Sunny in ${city}`),
    )
    .tool('crash', {}, () => text('the handler of crash ran'))
    .tool('colour', {}, (_args, ctx) => {
      const answer = ctx.inputResponses.colour;
      if (answer?.kind === 'accept') return text(`picked ${JSON.stringify(answer.content.colour)}`);
      return inputRequired([inputRequest('colour', formElicitation('Pick one', colourSchema))]);
    })
    .provider(prolog);
  server.use(tracing({ tracerProvider: recorder.provider }));
  server.use(async (call, next) => {
    if (call.method === 'tools/call' && call.params.name === 'crash')
      throw new Error('the policy crashed');
    return next();
  });
  return { server, prolog, close: () => prolog.close() };
}
