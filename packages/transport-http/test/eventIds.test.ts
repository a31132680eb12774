import { afterEach, describe, expect, it } from 'vitest';
import { type HttpServerHandle } from '@rondo/transport-http';
import { serveHttp } from './support/edges.js';
import { fakeEndpoint } from './support/fakeEndpoint.js';
import { parseSse, post, send } from './support/http.js';

// Issue 31, point 12: an SSE event id does not carry the session id, so a `Last-Event-ID` that
// leaks (a log line, a proxy) is no session credential; it still resumes its stream, in its own
// session only.

const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

describe('SSE event ids', () => {
  let server: HttpServerHandle;
  afterEach(() => server.close());

  it('do not embed the session id, and resume only in their own session', async () => {
    server = await serveHttp(fakeEndpoint());
    const open = async () => {
      const response = await post(server.url, request(1, 'initialize'));
      return String(response.headers['mcp-session-id']);
    };
    const [mine, other] = [await open(), await open()];
    const streamed = await post(server.url, request(2, 'stream', { steps: 2 }), {
      'mcp-session-id': mine,
    });
    const ids = parseSse(streamed.text).map((event) => event.id ?? '');
    expect(ids.length).toBeGreaterThan(1);
    for (const id of ids) {
      expect(id).not.toContain(mine);
      // Not a long stretch of it either: what an id shows of the session is no credential.
      expect(mine.slice(0, 16)).not.toBe(id.slice(0, 16));
    }

    const resume = (session: string) =>
      send(server.url, {
        method: 'GET',
        headers: {
          'mcp-session-id': session,
          accept: 'text/event-stream',
          'last-event-id': ids[0]!,
        },
      });
    // Without the session id the event id opens nothing; with another session's, 400.
    expect((await resume('made-up-session')).status).toBe(404);
    expect((await resume(other)).status).toBe(400);
    const resumed = await resume(mine);
    expect(resumed.status).toBe(200);
    const replayed = parseSse(resumed.text).filter((event) => event.data !== '');
    expect(replayed.map((event) => JSON.parse(event.data).id ?? 'note').at(-1)).toBe(2);
  });
});
