import { Client, type ClientTransport, type TransportSink } from '@rondo/client';
import type { JsonRpcMessage, JsonRpcRequest, RequestId } from '@rondo/protocol';
import { afterEach, describe, expect, it } from 'vitest';

// A legacy server request names no call (issue 38): the client gives it to the call whose response
// stream carried it, or whose progress token it names, or to the only open call with handlers of
// its own; with several candidates and nothing to tell them apart it refuses it to the server.

/** A scripted legacy server: it answers `initialize` and keeps each `tools/call` open. */
class ScriptedServer implements ClientTransport {
  readonly endpointKey = 'scripted:attribution';
  sink: TransportSink | undefined;
  readonly calls: JsonRpcRequest[] = [];
  readonly replies = new Map<RequestId, JsonRpcMessage>();

  start(sink: TransportSink): Promise<void> {
    this.sink = sink;
    return Promise.resolve();
  }

  send(message: JsonRpcMessage): Promise<void> {
    if ('method' in message && 'id' in message && message.method === 'initialize') {
      this.deliver({
        jsonrpc: '2.0',
        id: message.id,
        result: {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {} },
          serverInfo: { name: 'scripted', version: '1.0.0' },
        },
      });
    } else if ('method' in message && 'id' in message && message.method === 'tools/call') {
      this.calls.push(message);
    } else if (!('method' in message) && message.id !== null) {
      this.replies.set(message.id, message);
    }
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  /** Sends the client a frame, as carried on the response stream of `relatedTo` if given. */
  deliver(message: JsonRpcMessage, relatedTo?: RequestId): void {
    this.sink?.receive(JSON.stringify(message), relatedTo);
  }

  /** Asks the client a question (an elicitation); resolves with its reply. */
  async ask(id: string, meta?: Record<string, unknown>, relatedTo?: RequestId) {
    const params = {
      message: id,
      requestedSchema: { type: 'object', properties: {} },
      ...(meta ? { _meta: meta } : {}),
    };
    this.deliver({ jsonrpc: '2.0', id, method: 'elicitation/create', params }, relatedTo);
    for (let tries = 0; !this.replies.has(id); tries += 1) {
      if (tries > 200) throw new Error(`no reply to ${id}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return this.replies.get(id);
  }
}

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** A client of `server` with two open calls, each answering with its own name. */
async function twoOpenCalls(server: ScriptedServer) {
  const client = new Client({ transport: server, era: '2025-11-25' });
  clients.push(client);
  await client.connect();
  const handlersOf = (name: string) => ({
    elicitation: () => ({ action: 'accept' as const, content: { by: name } }),
  });
  for (const name of ['first', 'second']) {
    void client
      .request('tools/call', { name }, { handlers: handlersOf(name), onProgress: () => undefined })
      .catch(() => undefined);
  }
  for (let tries = 0; server.calls.length < 2; tries += 1) {
    if (tries > 200) throw new Error('the calls were not sent');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { first: server.calls[0]!.id, second: server.calls[1]!.id };
}

describe('which open call a legacy server request belongs to', () => {
  it('is the call whose response stream carried it', async () => {
    const server = new ScriptedServer();
    const { second } = await twoOpenCalls(server);
    expect(await server.ask('q1', undefined, second)).toMatchObject({
      result: { action: 'accept', content: { by: 'second' } },
    });
  });

  it('is the call whose progress token it names', async () => {
    const server = new ScriptedServer();
    const { first } = await twoOpenCalls(server);
    expect(await server.ask('q1', { progressToken: first })).toMatchObject({
      result: { content: { by: 'first' } },
    });
  });

  it('is refused to the server when several calls could have asked', async () => {
    const server = new ScriptedServer();
    await twoOpenCalls(server);
    expect(await server.ask('q1')).toMatchObject({
      error: {
        code: -32603,
        message:
          'The client cannot tell which of its 2 open calls this elicitation/create request is for',
      },
    });
  });

  it('is the only open call with handlers, even while it answers another question', async () => {
    const server = new ScriptedServer();
    const client = new Client({ transport: server, era: '2025-11-25' });
    clients.push(client);
    await client.connect();
    let release: () => void = () => undefined;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const asked: string[] = [];
    const handlers = {
      elicitation: async (params: { message: string }) => {
        asked.push(params.message);
        if (params.message === 'q1') await slow;
        return { action: 'accept' as const, content: {} };
      },
    };
    void client.request('tools/call', { name: 'one' }, { handlers }).catch(() => undefined);
    for (let tries = 0; server.calls.length < 1; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const firstReply = server.ask('q1');
    expect(await server.ask('q2')).toMatchObject({ result: { action: 'accept' } });
    release();
    await firstReply;
    expect(asked).toEqual(['q1', 'q2']);
  });
});
