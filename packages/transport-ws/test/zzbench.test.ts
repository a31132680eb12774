import { it } from 'vitest';
import { WebSocket } from 'ws';
import { serveWebSocket } from '@rondo/transport-ws';
import { scriptedEndpoint } from './support/scriptedEndpoint.js';
it('bench', async () => {
  const h = await serveWebSocket(scriptedEndpoint().endpoint, { keepAlive: false });
  const ws = new WebSocket(h.url, 'mcp');
  await new Promise((r) => ws.once('open', r));
  const n = 20000; let got = 0; const t = performance.now();
  const done = new Promise<void>((r) => ws.on('message', () => { if (++got === n) r(); }));
  for (let i = 0; i < n; i++) ws.send(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'echo' }));
  await done;
  console.log('BENCH pipelined msgs/s', Math.round(n / ((performance.now() - t) / 1000)));
  let seq = 0; const t2 = performance.now();
  await new Promise<void>((r) => { ws.on('message', () => { if (++seq === 2000) r(); else ws.send(JSON.stringify({ jsonrpc: '2.0', id: seq, method: 'echo' })); }); ws.send(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'echo' })); });
  console.log('BENCH sequential rtt us', Math.round((performance.now() - t2) * 1000 / 2000));
  ws.close(); await h.close();
}, 60000);
