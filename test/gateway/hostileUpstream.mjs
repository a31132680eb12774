// A hostile MCP upstream on stdio (legacy era, raw JSON-RPC lines), for the gateway's failure tests.
// Tools: `ok` answers; `crash` exits the process mid-call; `hang` never answers; `flood` sends
// 20,000 notifications (log messages, list changes, resource updates, progress) and then answers.
import { createInterface } from 'node:readline';

const send = (message) =>
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const tools = ['ok', 'crash', 'hang', 'flood'].map((name) => ({
  name,
  inputSchema: { type: 'object', properties: {} },
}));

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  const { id, method, params } = message;
  if (id === undefined) return;
  switch (method) {
    case 'initialize':
      return send({
        id,
        result: {
          protocolVersion: '2025-11-25',
          capabilities: {
            tools: { listChanged: true },
            logging: {},
            resources: { subscribe: true },
          },
          serverInfo: { name: 'hostile', version: '1.0.0' },
        },
      });
    case 'tools/list':
      return send({ id, result: { tools } });
    case 'resources/list':
      return send({ id, result: { resources: [] } });
    case 'resources/templates/list':
      return send({ id, result: { resourceTemplates: [] } });
    case 'tools/call': {
      const token = params?._meta?.progressToken;
      switch (params?.name) {
        case 'ok':
          return send({
            id,
            result: { content: [{ type: 'text', text: `ok from ${process.pid}` }] },
          });
        case 'crash':
          process.stderr.write('hostile: crashing on purpose\n');
          return process.exit(7);
        case 'hang':
          return undefined;
        case 'flood': {
          const data = 'x'.repeat(200);
          for (let n = 0; n < 20_000; n += 1) {
            send({ method: 'notifications/message', params: { level: 'info', data } });
            if (n % 4 === 0) send({ method: 'notifications/tools/list_changed' });
            if (n % 4 === 1)
              send({
                method: 'notifications/resources/updated',
                params: { uri: `file:///r/${n}` },
              });
            if (token !== undefined)
              send({
                method: 'notifications/progress',
                params: { progressToken: token, progress: n },
              });
          }
          return send({ id, result: { content: [{ type: 'text', text: 'flooded' }] } });
        }
      }
      return send({ id, error: { code: -32602, message: 'unknown tool' } });
    }
    default:
      return send({ id, error: { code: -32601, message: `Method not found: ${method}` } });
  }
});
