// The stdio loop the raw test upstreams share (heavyCatalogUpstream.mjs, leakyUpstream.mjs): a
// legacy (2025-11-25) MCP server written as JSON-RPC lines, with no SDK in between, so a test
// controls every byte it sends.
import { createInterface } from 'node:readline';

/**
 * Serves the upstream `name` (tools only) on stdin and stdout: answers `initialize` itself, and
 * each other request with the result `answer(method, params)` gives, or -32601 when it gives
 * none. Notifications are read and dropped.
 */
export function serveJsonLines(name, answer) {
  const send = (message) =>
    process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
    const { id, method, params } = JSON.parse(line);
    if (id === undefined) return;
    if (method === 'initialize') {
      return send({
        id,
        result: {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {} },
          serverInfo: { name, version: '1.0.0' },
        },
      });
    }
    const result = answer(method, params);
    if (result !== undefined) return send({ id, result });
    return send({ id, error: { code: -32601, message: `Method not found: ${method}` } });
  });
}
