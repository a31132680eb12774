// A stdio MCP server that misbehaves on purpose, for the client's hostile-server tests. It
// answers `initialize` (legacy era) and `ping`, and does what its mode says on `tools/call`:
//   huge-line   writes 100 MB without a newline, then a newline and a proper answer
//   deep        answers with a result nesting 10,000 arrays
//   stray-id    answers an id the client never sent, then the real answer
//   exit        writes to stderr and exits with code 3 without answering
import { createInterface } from 'node:readline';

const mode = process.argv[2];
const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const answer = (id, result) => write({ jsonrpc: '2.0', id, result });

function hugeLine(id) {
  const chunk = 'x'.repeat(1024 * 1024);
  let sent = 0;
  const more = () => {
    while (sent < 100) {
      sent += 1;
      if (!process.stdout.write(chunk)) return process.stdout.once('drain', more);
    }
    process.stdout.write('\n');
    answer(id, { content: [{ type: 'text', text: 'after the flood' }] });
  };
  more();
}

const onCall = {
  'huge-line': hugeLine,
  deep: (id) => {
    const text = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`;
    process.stdout.write(`${text}\n`);
  },
  'stray-id': (id) => {
    answer(987654, { content: [] });
    answer(id, { content: [{ type: 'text', text: 'the real answer' }] });
  },
  exit: () => {
    process.stderr.write('hostile server: giving up mid-call\n');
    process.exit(3);
  },
};

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  if (message.method === 'initialize') {
    return answer(message.id, {
      protocolVersion: '2025-11-25',
      capabilities: { tools: {} },
      serverInfo: { name: 'hostile', version: '1.0.0' },
    });
  }
  if (message.method === 'tools/call') return onCall[mode](message.id);
  answer(message.id, {});
});
