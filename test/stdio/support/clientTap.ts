import type { Readable } from 'node:stream';
import type { WireMessage } from './wire.js';

type Message = WireMessage;

/** What a tapped client transport saw: what the client sent, and every line the server wrote. */
export interface WireTap {
  /** Messages the client sent, in order. */
  sent: Message[];
  /** Lines the server wrote to stdout, parsed, in order. */
  received: Message[];
}

interface StdioTransportLike {
  start(): Promise<void>;
  send(message: never, options?: never): Promise<void>;
}

/**
 * Taps an official `StdioClientTransport` (v1 or v2) without subclassing it (the v2 client only
 * probes on a sibling process for the exact base class): `send` is wrapped to record what the client
 * sends, and after `start` a second listener reads the child's raw stdout, so the lines validated
 * are the bytes the server wrote, not the SDK's parsed copy. `rewrite` may change outgoing messages.
 */
export function tapTransport<T extends StdioTransportLike>(
  transport: T,
  rewrite: (message: Message) => Message = (message) => message,
): WireTap {
  const tap: WireTap = { sent: [], received: [] };
  const start = transport.start.bind(transport);
  const send = transport.send.bind(transport) as (
    message: Message,
    options?: unknown,
  ) => Promise<void>;
  transport.start = async () => {
    await start();
    // The SDK keeps the child process in `_process`; reading its stdout twice is harmless.
    const stdout = (transport as unknown as { _process?: { stdout?: Readable } })._process?.stdout;
    let rest = '';
    stdout?.on('data', (chunk: Buffer) => {
      const parts = (rest + chunk.toString('utf8')).split('\n');
      rest = parts.pop() ?? '';
      for (const part of parts) if (part.trim()) tap.received.push(JSON.parse(part) as Message);
    });
  };
  const tapped = async (message: Message, options?: unknown) => {
    const rewritten = rewrite(message);
    tap.sent.push(rewritten);
    return send(rewritten, options);
  };
  transport.send = tapped;
  return tap;
}

/** Rewrites a legacy `initialize` to ask for `version` (the v1 client always asks for its latest). */
export function askForVersion(version: string) {
  return (message: Message): Message =>
    message.method === 'initialize'
      ? { ...message, params: { ...message.params, protocolVersion: version } }
      : message;
}
