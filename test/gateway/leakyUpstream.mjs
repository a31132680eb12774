// A legacy MCP upstream on stdio (raw JSON-RPC lines) that leaks what must stay the operator's:
// `crash` writes a secret to stderr and exits; once it has crashed (its marker file exists), every
// later start writes the secret and exits at once, so the upstream stays down.
import { existsSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const marker = process.argv[2];
if (marker && existsSync(marker)) {
  process.stderr.write('leaky: token=stderr-secret-0042\n');
  process.exit(3);
}
const send = (message) =>
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const tools = ['ok', 'crash'].map((name) => ({
  name,
  inputSchema: { type: 'object', properties: {} },
}));

createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) return;
  if (method === 'initialize') {
    return send({
      id,
      result: {
        protocolVersion: '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 'leaky', version: '1.0.0' },
      },
    });
  }
  if (method === 'tools/list') return send({ id, result: { tools } });
  if (method === 'tools/call' && params?.name === 'crash') {
    if (marker) writeFileSync(marker, 'crashed');
    process.stderr.write('leaky: token=stderr-secret-0042\n');
    return process.exit(7);
  }
  if (method === 'tools/call') {
    return send({ id, result: { content: [{ type: 'text', text: 'ok' }] } });
  }
  return send({ id, error: { code: -32601, message: `Method not found: ${method}` } });
});
