import { echoAnswer } from './fixedAnswers.js';

/**
 * A bare Node JSON-lines server on stdin/stdout, with no MCP logic: every line is parsed, and
 * answered with the echo tool's result for its `arguments.text` under its id, serialised per
 * message; the answers of one input chunk go out in one write. What Rondo over stdio is measured
 * against: the least a JSON-RPC server in Node does per message.
 */
export function serveJsonLines(): void {
  let pending = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    let out = '';
    for (const line of lines) {
      if (line.length === 0) continue;
      const message = JSON.parse(line) as {
        id?: unknown;
        params?: { arguments?: { text?: string } };
      };
      const result = echoAnswer(message.params?.arguments?.text ?? '');
      out += `${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n`;
    }
    if (out !== '') process.stdout.write(out);
  });
}
