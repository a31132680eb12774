// A server whose tool talks on the console the way a newcomer's debugging does, served on stdio.
// CONSOLE=keep serves it with consoleToStderr: false.
import { createServer, serve, text } from '@rondo/server';

const server = createServer({ name: 'chatty', version: '1.0.0' }).tool(
  'chat',
  { description: 'Says something, after logging on the console' },
  () => {
    console.log('chat called');
    console.info({ nested: { value: 1 } });
    console.debug('a debug line');
    console.table([{ a: 1 }]);
    return text('said');
  },
);

await serve(server, {
  transport: 'stdio',
  ...(process.env.CONSOLE === 'keep' ? { consoleToStderr: false } : {}),
});
