import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureHttp, type FixtureHttp } from './support/fixtureServer.js';

// Issue 14: SSE polling (SEP-1699) only for sessions whose revision has it. A 2025-06-18 client
// gets no empty-data (priming) event and no stream closed before its answer; a 2025-11-25 one gets
// the priming event first and can be asked to resume.

const POST_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

interface Event {
  id?: string;
  data: string;
}

function eventsOf(text: string): Event[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) => {
      const event: Event = { data: '' };
      for (const line of block.split('\n')) {
        if (line.startsWith('id: ')) event.id = line.slice(4);
        if (line.startsWith('data:')) event.data += line.slice(5).trim();
      }
      return event;
    });
}

describe('SSE priming and polling by negotiated revision, against the fixture', () => {
  let fixture: FixtureHttp;
  beforeAll(async () => {
    fixture = await startFixtureHttp();
  });
  afterAll(() => fixture.close());

  const open = async (revision: string) => {
    const init = await fetch(fixture.url, {
      method: 'POST',
      headers: POST_HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: revision,
          capabilities: {},
          clientInfo: { name: 't', version: '1' },
        },
      }),
    });
    const headers = {
      ...POST_HEADERS,
      'mcp-session-id': init.headers.get('mcp-session-id') ?? '',
      'mcp-protocol-version': revision,
    };
    await fetch(fixture.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    const call = async (id: number, name: string) => {
      const response = await fetch(fixture.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name, arguments: {}, _meta: { progressToken: `p${id}` } },
        }),
      });
      const text = await response.text();
      return { type: response.headers.get('content-type'), text, events: eventsOf(text) };
    };
    return { headers, call };
  };

  it('sends a 2025-06-18 session no empty-data event, and answers test_reconnection on its POST', async () => {
    const session = await open('2025-06-18');
    const progress = await session.call(1, 'test_tool_with_progress');
    expect(progress.type).toBe('text/event-stream');
    expect(progress.events.length).toBeGreaterThan(1);
    expect(progress.events.filter((event) => event.data === '')).toEqual([]);
    // Nothing to resume for this client: the stream never opens, the answer is the POST's body.
    const reconnection = await session.call(2, 'test_reconnection');
    expect(reconnection.type).toBe('application/json');
    expect(JSON.parse(reconnection.text)).toMatchObject({ id: 2, result: { content: [{}] } });
  });

  it('primes a 2025-11-25 stream and resumes test_reconnection on GET with its result', async () => {
    const session = await open('2025-11-25');
    const progress = await session.call(1, 'test_tool_with_progress');
    expect(progress.events[0]).toMatchObject({ data: '' });
    const reconnection = await session.call(2, 'test_reconnection');
    expect(reconnection.events.map((event) => event.data)).toEqual(['']);
    const resumed = await fetch(fixture.url, {
      headers: {
        ...session.headers,
        accept: 'text/event-stream',
        'last-event-id': reconnection.events[0]!.id!,
      },
    });
    const events = eventsOf(await resumed.text());
    expect(events.map((event) => JSON.parse(event.data))).toMatchObject([
      { id: 2, result: { content: [{ type: 'text', text: 'Reconnection test completed' }] } },
    ]);
  });
});
