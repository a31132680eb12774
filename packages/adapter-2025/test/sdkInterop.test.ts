import { LazyAbortController } from '@rondo/core/internal';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { createEndpoint, createServer, type Connection, type Endpoint } from '@rondo/core';
import {
  formElicitation,
  inputRequest,
  inputRequired,
  text,
  type JsonRpcMessage,
} from '@rondo/protocol';
import { legacyEra } from '@rondo/adapter-2025';

/** The official v1 client's transport, wired to an endpoint in memory through JSON text. */
class EndpointTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly connection: Connection;

  constructor(endpoint: Endpoint) {
    this.connection = endpoint.connect({ send: (message) => this.deliver(message) });
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    const inbound = JSON.parse(JSON.stringify(message)) as JsonRpcMessage;
    this.connection.receive(inbound, {
      send: (out) => this.deliver(out),
      end: (out) => out && this.deliver(out),
      cancellation: new LazyAbortController(),
    });
  }

  async close(): Promise<void> {
    this.connection.close();
    this.onclose?.();
  }

  private deliver(message: JsonRpcMessage): void {
    const copy = JSON.parse(JSON.stringify(message)) as JSONRPCMessage;
    setImmediate(() => this.onmessage?.(copy));
  }
}

function server() {
  return createServer({ name: 'interop', version: '1.0.0', log: () => {} })
    .tool('steps', { description: 'two elicitation rounds' }, (_args, ctx) => {
      const schema = { type: 'object', properties: { v: { type: 'string' } }, required: ['v'] };
      if (ctx.round < 3)
        return inputRequired(
          [inputRequest(`step${ctx.round}`, formElicitation(`Step ${ctx.round}`, schema))],
          ctx.round,
        );
      return text(`done after ${JSON.stringify(ctx.requestState)} rounds`);
    })
    .tool('work', { description: 'logs and reports progress' }, async (_args, ctx) => {
      ctx.log('info', 'Tool execution started');
      for (const step of [0, 50, 100]) {
        ctx.progress(step, 100);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return text('worked');
    })
    .tool(
      'slow',
      { description: 'waits for cancellation' },
      (_args, ctx) =>
        new Promise((resolve) =>
          ctx.signal.addEventListener('abort', () => resolve(text('aborted'))),
        ),
    );
}

describe('the official @modelcontextprotocol/sdk 1.x client', () => {
  it('negotiates, lists, and completes a round hook through its elicitation handler', async () => {
    const client = new Client(
      { name: 'v1', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { v: 'x' } };
    });
    await client.connect(new EndpointTransport(createEndpoint(server(), { legacy: legacyEra() })));
    expect(client.getServerVersion()).toMatchObject({ name: 'interop', version: '1.0.0' });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['steps', 'work', 'slow']);
    const result = await client.callTool({ name: 'steps', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'done after 2 rounds' }]);
    expect(asked).toEqual(['Step 1', 'Step 2']);
    await client.close();
  });

  it('sets the log level, receives logs and progress, and cancels a slow tool', async () => {
    const client = new Client({ name: 'v1', version: '1.0.0' }, { capabilities: {} });
    const logs: unknown[] = [];
    client.setNotificationHandler(
      LoggingMessageNotificationSchema,
      (notification) => void logs.push(notification.params.data),
    );
    await client.connect(new EndpointTransport(createEndpoint(server(), { legacy: legacyEra() })));
    await client.setLoggingLevel('debug');
    const progress: number[] = [];
    await client.callTool({ name: 'work', arguments: {} }, CallToolResultSchema, {
      onprogress: (p) => void progress.push(p.progress),
    });
    expect(progress).toEqual([0, 50, 100]);
    expect(logs).toEqual(['Tool execution started']);
    const controller = new AbortController();
    const slow = client.callTool({ name: 'slow', arguments: {} }, CallToolResultSchema, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort('stop'), 20);
    await expect(slow).rejects.toThrow();
    await client.close();
  });
});
