import { createServer, serve, text, TRANSPORTS, type Transport } from '@rondo/server';

const server = createServer({ name: 'greeter', version: '1.0.0' }).tool(
  'greet',
  {
    description: 'Says hello.',
    input: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
  ({ name }) => text(`Hello, ${String(name)}!`),
);

// TRANSPORT=stdio|http|ws picks the transport (http here by default); PORT=0 picks a free port.
const transport = (process.env.TRANSPORT ?? 'http') as Transport;
if (!TRANSPORTS.includes(transport))
  throw new Error(`TRANSPORT must be one of ${TRANSPORTS.join(', ')}`);
const running = await serve(server, {
  transport,
  port: Number(process.env.PORT ?? 3000),
  stopOnSignals: ['SIGINT', 'SIGTERM'],
});
// On stdio, stdout carries nothing but JSON-RPC lines: the greeting goes to stderr there.
const say = transport === 'stdio' ? console.error : console.log;
say(`greeter: serving ${transport}${running.url ? ` at ${running.url}` : ''}`);

// A signal arrived (or, on stdio, stdin ended): the transport and the server are closed.
await running.closed;
