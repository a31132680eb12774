import WebSocket from 'ws';
import type { ServerChild } from '../child.js';
import type { MessageChannel } from './pipeline.js';

/** The server child's stdin/stdout as a newline-delimited channel. */
export function stdioChannel(child: ServerChild): MessageChannel {
  const { stdin, stdout } = child.process;
  if (!stdin || !stdout) throw new Error('the server was started without stdio pipes');
  let receiver: (message: string) => void = () => undefined;
  let rest = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line) receiver(line);
  });
  return {
    send: (messages) => void stdin.write(`${messages.join('\n')}\n`),
    onMessage: (next) => (receiver = next),
    close: async () => undefined,
  };
}

/** A WebSocket to the server (subprotocol `mcp`), one message per text frame. */
export async function webSocketChannel(child: ServerChild): Promise<MessageChannel> {
  const socket = new WebSocket(child.url('ws'), 'mcp');
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let receiver: (message: string) => void = () => undefined;
  socket.on('message', (data: Buffer) => receiver(data.toString('utf8')));
  return {
    send: (messages) => {
      for (const message of messages) socket.send(message);
    },
    onMessage: (next) => (receiver = next),
    close: async () => {
      socket.close();
      await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    },
  };
}
