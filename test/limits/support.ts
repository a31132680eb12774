import type { WireMessage } from '../stdio/support/wire.js';
import type { Served } from '../middleware/middlewareServer.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'limits-test', version: '1.0.0' },
};

/** `levels` arrays nested in each other, as JSON text (built as text: no recursion here either). */
export function nestedArrays(levels: number): string {
  return `${'['.repeat(levels)}${']'.repeat(levels)}`;
}

/** A modern client over a served transport, sending raw request text and awaiting answers by id. */
export class RawClient {
  private nextId = 1;
  private readonly waiting = new Map<unknown, (message: WireMessage) => void>();

  constructor(private readonly served: Served) {
    served.driver.onMessage((message) => {
      if (!('id' in message)) return;
      this.waiting.get(message.id)?.(message);
      this.waiting.delete(message.id);
    });
  }

  /** Calls `tool` with `argumentsText` (the raw JSON text of the `arguments` object). */
  callTool(tool: string, argumentsText: string): Promise<WireMessage> {
    const id = this.nextId++;
    const answered = new Promise<WireMessage>((resolve) => this.waiting.set(id, resolve));
    const params = `{"name":${JSON.stringify(tool)},"arguments":${argumentsText},"_meta":${JSON.stringify(META)}}`;
    void this.served.driver.sendText(
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${params}}`,
    );
    return answered;
  }
}
