// A legacy MCP upstream on stdio (raw JSON-RPC lines) whose catalog is 80 MB: `tools/list` has 40
// pages of 20 tools, each tool with a 100 kB description (2 MB a page). `light` is small.
import { serveJsonLines } from './jsonLinesUpstream.mjs';

const PAGES = 40;
const PER_PAGE = 20;
const description = 'x'.repeat(100_000);

serveJsonLines('heavy', (method, params) => {
  if (method === 'tools/list') {
    const page = Number(params?.cursor ?? 0);
    const tools = Array.from({ length: PER_PAGE }, (_, n) => ({
      name: `big_${page * PER_PAGE + n}`,
      description,
      inputSchema: { type: 'object', properties: {} },
    }));
    if (page === 0) tools.unshift({ name: 'light', inputSchema: { type: 'object' } });
    const next = page + 1 < PAGES ? { nextCursor: String(page + 1) } : {};
    return { tools, ...next };
  }
  if (method === 'tools/call') return { content: [{ type: 'text', text: params?.name ?? '' }] };
  return undefined;
});
