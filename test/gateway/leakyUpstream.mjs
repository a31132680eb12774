// A legacy MCP upstream on stdio (raw JSON-RPC lines) that leaks what must stay the operator's:
// `crash` writes a secret to stderr and exits; once it has crashed (its marker file exists), every
// later start writes the secret and exits at once, so the upstream stays down.
import { existsSync, writeFileSync } from 'node:fs';
import { serveJsonLines } from './jsonLinesUpstream.mjs';

const marker = process.argv[2];
if (marker && existsSync(marker)) {
  process.stderr.write('leaky: token=stderr-secret-0042\n');
  process.exit(3);
}
const tools = ['ok', 'crash'].map((name) => ({
  name,
  inputSchema: { type: 'object', properties: {} },
}));

serveJsonLines('leaky', (method, params) => {
  if (method === 'tools/list') return { tools };
  if (method === 'tools/call' && params?.name === 'crash') {
    if (marker) writeFileSync(marker, 'crashed');
    process.stderr.write('leaky: token=stderr-secret-0042\n');
    return process.exit(7);
  }
  if (method === 'tools/call') return { content: [{ type: 'text', text: 'ok' }] };
  return undefined;
});
