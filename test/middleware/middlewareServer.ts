import { PassThrough } from 'node:stream';
import { z } from 'zod';
import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import {
  createEndpoint,
  createServer,
  isListResult,
  type Endpoint,
  type McpCall,
  type RondoServer,
} from '@rondo/core';
import {
  ErrorCode,
  McpError,
  formElicitation,
  inputRequest,
  inputRequired,
  text,
} from '@rondo/protocol';
import { serveHttp } from '@rondo/transport-http';
import { serveStdio } from '@rondo/transport-stdio';
import { serveWebSocket } from '@rondo/transport-ws';
import type { WireMessage } from '../stdio/support/wire.js';
import {
  HttpDriver,
  WsDriver,
  type TransportDriver,
  type TransportName,
} from '../contract/support/transports.js';

/** What the outermost middleware saw of one call. */
export interface SeenCall {
  method: string;
  era: McpCall['era'];
  round: number;
  tool: unknown;
}

/** The middleware test server: its tools, and a log of what each middleware saw, in order. */
export interface MiddlewareServer {
  server: RondoServer;
  /** Every call the outermost middleware saw. */
  seen: SeenCall[];
  /** Entry and exit marks of the two ordering middleware, as `outer>`, `inner>`, `inner<`, `outer<`. */
  order: string[];
}

const colourSchema = {
  type: 'object',
  properties: { colour: { type: 'string', enum: ['red', 'green'] } },
  required: ['colour'],
};

/**
 * A server whose middleware records calls and their nesting, refuses the `blocked` tool with
 * -32602, answers the `cached` tool itself, throws a plain error for `crash`, and hides `internal`
 * from `tools/list`.
 */
export function middlewareServer(): MiddlewareServer {
  const seen: SeenCall[] = [];
  const order: string[] = [];
  const server = createServer({ name: 'middleware', version: '1.0.0', log: () => undefined })
    .tool('echo', { input: z.object({ text: z.string() }) }, ({ text: said }) => text(said))
    .tool('blocked', {}, () => text('the handler of blocked ran'))
    .tool('cached', {}, () => text('the handler of cached ran'))
    .tool('crash', {}, () => text('the handler of crash ran'))
    .tool('internal', {}, () => text('internal'))
    .tool('colour', {}, (_args, ctx) => {
      const answer = ctx.inputResponses.colour;
      if (answer?.kind === 'accept') return text(`picked ${JSON.stringify(answer.content.colour)}`);
      return inputRequired([inputRequest('colour', formElicitation('Pick one', colourSchema))]);
    });
  server.use(async (call, next) => {
    seen.push({ method: call.method, era: call.era, round: call.round, tool: call.params.name });
    order.push('outer>');
    try {
      return await next();
    } finally {
      order.push('outer<');
    }
  });
  server.use(async (call, next) => {
    order.push('inner>');
    try {
      return await next();
    } finally {
      order.push('inner<');
    }
  });
  server.use(async (call, next) => {
    const tool = call.params.name;
    if (call.method === 'tools/call' && tool === 'blocked')
      throw new McpError(ErrorCode.InvalidParams, 'blocked by policy', { tool });
    if (call.method === 'tools/call' && tool === 'crash') throw new Error('the policy crashed');
    if (call.method === 'tools/call' && tool === 'cached') return text('answered by middleware');
    const result = await next();
    if (call.method !== 'tools/list' || !isListResult(result)) return result;
    return {
      ...result,
      items: result.items.filter((item) => (item as { name: string }).name !== 'internal'),
    };
  });
  return { server, seen, order };
}

/** An endpoint of both eras. */
export function bothEras(server: RondoServer): Endpoint {
  return createEndpoint(server, { modern: modernEra(), legacy: legacyEra() });
}

/** A running transport with one client connection to it. */
export interface Served {
  driver: TransportDriver;
  close(): Promise<void>;
}

/** Serves `endpoint` on `transport` (stdio in process, over a pair of streams) and connects. */
export async function serveAndConnect(
  endpoint: Endpoint,
  transport: TransportName,
): Promise<Served> {
  if (transport === 'stdio') return stdioInProcess(endpoint);
  const handle =
    transport === 'http'
      ? await serveHttp(endpoint, { port: 0 })
      : await serveWebSocket(endpoint, { port: 0, keepAlive: false });
  const driver =
    transport === 'http' ? new HttpDriver(handle.url) : await WsDriver.connect(handle.url);
  return {
    driver,
    async close() {
      await driver.close();
      await handle.close();
    },
  };
}

/** stdio framing (one JSON-RPC message per line) over in-process streams. */
async function stdioInProcess(endpoint: Endpoint): Promise<Served> {
  const input = new PassThrough();
  const output = new PassThrough();
  const listeners: ((message: WireMessage) => void)[] = [];
  let rest = '';
  output.setEncoding('utf8');
  output.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      if (line.trim() === '') continue;
      const message = JSON.parse(line) as WireMessage;
      for (const listener of listeners) listener(message);
    }
  });
  const stdio = serveStdio(endpoint, { input, output, onError: () => undefined });
  const driver: TransportDriver = {
    transport: 'stdio',
    noise: [],
    send: async (message) => void input.write(`${JSON.stringify(message)}\n`),
    sendText: async (raw) => void input.write(`${raw}\n`),
    onMessage: (listener) => void listeners.push(listener),
    openSessionChannel: async () => undefined,
    closeResponse: () => false,
    close: async () => undefined,
  };
  return {
    driver,
    async close() {
      input.end();
      await stdio.close();
    },
  };
}

/** Adds `Authorization: Bearer <token>` to every request the driver sends. */
export function driverWithToken(driver: HttpDriver, token: string): HttpDriver {
  const send = driver.send.bind(driver);
  const sendText = driver.sendText.bind(driver);
  const open = driver.openSessionChannel.bind(driver);
  const auth = { authorization: `Bearer ${token}` };
  driver.send = (message, headers = {}) => send(message, { ...headers, ...auth });
  driver.sendText = (raw, headers = {}) => sendText(raw, { ...headers, ...auth });
  driver.openSessionChannel = (headers) => open({ ...headers, ...auth });
  return driver;
}
