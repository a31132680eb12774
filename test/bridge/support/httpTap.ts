import type { WireMessage } from '../../stdio/support/wire.js';

/** What a tapped fetch saw: the JSON-RPC messages a client posted and every one the server wrote. */
export interface HttpTap {
  fetch: typeof fetch;
  sent: WireMessage[];
  /** Waits for every response body to end, then returns the server's messages in arrival order. */
  received(): Promise<WireMessage[]>;
}

/**
 * A fetch for an official client transport that records the messages of each POST and of each
 * response (a JSON body or the `data:` lines of an SSE stream), for schema validation.
 */
export function tapHttp(): HttpTap {
  const sent: WireMessage[] = [];
  const bodies: Promise<WireMessage[]>[] = [];
  const tapped: typeof fetch = async (input, init) => {
    if (typeof init?.body === 'string') {
      const parsed = JSON.parse(init.body) as WireMessage | WireMessage[];
      sent.push(...(Array.isArray(parsed) ? parsed : [parsed]));
    }
    const response = await fetch(input, init);
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('application/json'))
      bodies.push(
        response
          .clone()
          .text()
          .then((text) => (text.trim() ? [JSON.parse(text)] : [])),
      );
    else if (type.includes('text/event-stream') && response.body)
      bodies.push(readEvents(response.clone().body!));
    return response;
  };
  return {
    fetch: tapped,
    sent,
    received: async () => (await Promise.all(bodies)).flat(),
  };
}

/**
 * The messages of an SSE body, read until the response to a request arrives (a request's stream
 * may stay open after it, as the suite's own reader assumes) or the stream ends.
 */
async function readEvents(body: ReadableStream<Uint8Array>): Promise<WireMessage[]> {
  const messages: WireMessage[] = [];
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let rest = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return messages;
      const lines = (rest + decoder.decode(value, { stream: true })).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('data:') || line.slice(5).trim() === '') continue;
        const message = JSON.parse(line.slice(5)) as WireMessage;
        messages.push(message);
        if (message.method === undefined && message.id !== undefined) return messages;
      }
    }
  } catch {
    return messages;
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}
