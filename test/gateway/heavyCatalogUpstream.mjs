// A legacy MCP upstream on stdio (raw JSON-RPC lines) whose catalog is 80 MB: `tools/list` has 40
// pages of 20 tools, each tool with a 100 kB description (2 MB a page). `light` is small.
import { createInterface } from 'node:readline';

const PAGES = 40;
const PER_PAGE = 20;
const send = (message) =>
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const description = 'x'.repeat(100_000);

createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) return;
  if (method === 'initialize') {
    return send({
      id,
      result: {
        protocolVersion: '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 'heavy', version: '1.0.0' },
      },
    });
  }
  if (method === 'tools/list') {
    const page = Number(params?.cursor ?? 0);
    const tools = Array.from({ length: PER_PAGE }, (_, n) => ({
      name: `big_${page * PER_PAGE + n}`,
      description,
      inputSchema: { type: 'object', properties: {} },
    }));
    if (page === 0) tools.unshift({ name: 'light', inputSchema: { type: 'object' } });
    const next = page + 1 < PAGES ? { nextCursor: String(page + 1) } : {};
    return send({ id, result: { tools, ...next } });
  }
  if (method === 'tools/call') {
    return send({ id, result: { content: [{ type: 'text', text: params?.name ?? '' }] } });
  }
  return send({ id, error: { code: -32601, message: `Method not found: ${method}` } });
});
