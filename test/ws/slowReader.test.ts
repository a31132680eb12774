import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { createEndpoint, createServer } from '@rondo/core';
import { text } from '@rondo/protocol';
import { serveWebSocket } from '@rondo/transport-ws';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const PAUSE_ABOVE = 256 * 1024;
const ANSWER_TEXT = 64 * 1024;

describe('a reader that never reads, with the real era adapters', () => {
  it('keeps the bytes buffered for it near the pause mark, then delivers everything once it reads', async () => {
    const server = createServer({ name: 'big', version: '1.0.0', log: () => undefined }).tool(
      'big',
      { description: 'Answers 64 KiB of text.' },
      () => text('x'.repeat(ANSWER_TEXT)),
    );
    const handle = await serveWebSocket(
      createEndpoint(server, { modern: modernEra(), legacy: legacyEra() }),
      {
        keepAlive: false,
        backpressure: { pauseAboveBytes: PAUSE_ABOVE, closeAboveBytes: 1 << 30 },
      },
    );
    try {
      const socket = new WebSocket(handle.url, 'mcp');
      await new Promise((resolve) => socket.once('open', resolve));
      let answers = 0;
      socket.on('message', () => (answers += 1));
      socket.pause();
      const requests = 400; // 25 MiB of answers
      for (let id = 0; id < requests; id++) {
        const params = { name: 'big', arguments: {}, _meta: MODERN_META };
        socket.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }));
      }
      for (let waited = 0; handle.stats().pausedConnections === 0 && waited < 5000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      const stats = handle.stats();
      expect(stats.pausedConnections).toBe(1);
      expect(stats.peakBufferedBytes).toBeLessThan(PAUSE_ABOVE + 4 * ANSWER_TEXT);

      socket.resume();
      for (let waited = 0; answers < requests && waited < 20_000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(answers).toBe(requests);
      socket.close();
    } finally {
      await handle.close();
    }
  });
});
