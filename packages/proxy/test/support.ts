import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import {
  Client,
  forgetNegotiatedEras,
  inMemoryTransport,
  type ClientHandlers,
  type ClientTransport,
  type EraChoice,
  type TransportSink,
} from '@rondo/client';
import {
  createEndpoint,
  createServer,
  type Endpoint,
  type Exchange,
  type RondoServer,
} from '@rondo/core';
import { LazyAbortController } from '@rondo/core/internal';
import { serializeMessage, text, type JsonObject, type JsonRpcMessage } from '@rondo/protocol';
import { tasks } from '@rondo/tasks';
import { afterEach, vi } from 'vitest';
import {
  proxy,
  withPassThrough,
  type PassedTaskLimits,
  type ProxyOptions,
  type UpstreamSpec,
} from '../src/index.js';

// The shared setup of the proxy tests: upstreams, gateways over them, clients, and their cleanup.

const closers: (() => Promise<void>)[] = [];

/** Closes `close`'s resource after the running test (the gateways below register themselves). */
export function closeAfterTest(close: () => Promise<void>): void {
  closers.push(close);
}

// Registered for every test file that imports this module: each test leaves nothing open.
afterEach(async () => {
  // In-memory transports share one endpoint key, under which `auto` remembers an era.
  forgetNegotiatedEras();
  for (const close of closers.splice(0)) await close();
});

/** The form the test upstreams ask their client to fill: one required name. */
export const NAME_FORM: JsonObject = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
};

/**
 * A legacy-only upstream whose `greet` asks its client for a name with a server-to-client request,
 * reports progress, then asks its client's model; its `roots` lists the client's roots.
 */
export function legacyAsker(): Endpoint {
  const server = createServer({ name: 'legacy-asker', version: '1.0.0' })
    .tool('greet', {}, async (_args, ctx) => {
      const answer = await ctx.elicit('Your name?', NAME_FORM);
      if (answer.kind !== 'accept') return text(`no name (${answer.kind})`);
      ctx.progress(1, 2, 'named');
      const reply = await ctx.sample({
        messages: [{ role: 'user', content: text(`Greet ${answer.content.name as string}`) }],
        maxTokens: 50,
      });
      return text(`${answer.content.name as string}: ${JSON.stringify(reply.content)}`);
    })
    .tool('roots', {}, async (_args, ctx) => text(JSON.stringify(await ctx.listRoots())));
  return endpointOf(server, 'legacy');
}

/** A gateway server over one upstream, served in memory to both eras, closed after the test. */
export function gateway(spec: UpstreamSpec, options: ProxyOptions = {}) {
  const provider = proxy(spec, options);
  const server = createServer({ name: 'gateway', version: '1.0.0' }).provider(provider);
  const endpoint = createEndpoint(server, { modern: modernEra(), legacy: legacyEra() });
  closeAfterTest(() => server.close());
  return { provider, server, endpoint };
}

/** How {@link passingGateway} is set up besides its proxy's options. */
export interface PassingSetup {
  /** The bounds of the passed-through tasks (`withPassThrough`'s third argument). */
  readonly limits?: PassedTaskLimits;
  /** Adds a middleware, which keeps every call off the pass-through path. */
  readonly middleware?: boolean;
}

/**
 * A gateway like {@link gateway} with the pass-through path in front of its endpoint; `passed`
 * spies on the provider's `passThrough` (which calls took the path).
 */
export function passingGateway(
  spec: UpstreamSpec,
  options: ProxyOptions = {},
  setup: PassingSetup = {},
) {
  const provider = proxy(spec, options);
  // As the gateway app does: the Tasks extension announces and answers for upstream tasks.
  const server = createServer({ name: 'gateway', version: '1.0.0' })
    .provider(provider)
    .use(tasks());
  if (setup.middleware) server.use((_call, next) => next());
  const endpoint = withPassThrough(
    createEndpoint(server, { modern: modernEra(), legacy: legacyEra() }),
    server,
    setup.limits,
  );
  // Each call passed through, and each answer the upstream gave one.
  const answers: Record<string, unknown>[] = [];
  const passThrough = provider.passThrough.bind(provider);
  const passed = vi
    .spyOn(provider, 'passThrough')
    .mockImplementation((client, method, params, cancellation, progress, log, caller, receiver) =>
      passThrough(client, method, params, cancellation, progress, log, caller, {
        resolve: (result) => {
          answers.push(result);
          receiver.resolve(result);
        },
        reject: (error) => receiver.reject(error),
      }),
    );
  closeAfterTest(() => server.close());
  return { provider, server, endpoint, passed, answers };
}

/** An in-memory upstream spec for an endpoint. */
export function memoryUpstream(endpoint: Endpoint, label = 'memory'): UpstreamSpec {
  return { transport: () => inMemoryTransport(endpoint), label };
}

/** Serves a Rondo server in one era only (or both). */
export function endpointOf(server: RondoServer, eras: 'legacy' | 'modern' | 'both'): Endpoint {
  if (eras === 'legacy') return createEndpoint(server, { legacy: legacyEra() });
  if (eras === 'modern') return createEndpoint(server, { modern: modernEra() });
  return createEndpoint(server, { modern: modernEra(), legacy: legacyEra() });
}

/** A connected client of `endpoint` in `era`. */
export async function clientOf(
  endpoint: Endpoint,
  era: EraChoice,
  handlers: ClientHandlers = {},
): Promise<Client> {
  const client = new Client({ transport: inMemoryTransport(endpoint), era, handlers });
  await client.connect();
  return client;
}

/**
 * A client transport into `endpoint` in this process whose every exchange carries `principal`,
 * as the HTTP transport's do once a token is verified; it records the messages it sends.
 */
export function authenticatedTransport(
  endpoint: Endpoint,
  principal: string,
  sent: JsonRpcMessage[],
): ClientTransport {
  let sink: TransportSink | undefined;
  let connection: ReturnType<Endpoint['connect']> | undefined;
  const deliver = (message: JsonRpcMessage): void => {
    const frame = serializeMessage(message);
    queueMicrotask(() => sink?.receive(frame));
  };
  return {
    endpointKey: `memory:${principal}`,
    async start(into) {
      await endpoint.ready();
      sink = into;
      connection = endpoint.connect({ send: deliver });
    },
    send(message) {
      sent.push(message);
      const exchange: Exchange = {
        send: deliver,
        end: (out) => out && deliver(out),
        cancellation: new LazyAbortController(),
        principal: { id: principal },
      };
      connection?.receive(JSON.parse(serializeMessage(message)) as JsonRpcMessage, exchange);
      return Promise.resolve();
    },
    close() {
      connection?.close();
      return Promise.resolve();
    },
  };
}
