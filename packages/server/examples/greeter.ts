import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { createEndpoint, createServer } from '@rondo/core';
import { text } from '@rondo/protocol';
import { serve, TRANSPORTS, type Transport } from '@rondo/server';

const server = createServer({ name: 'greeter', version: '1.0.0' }).tool(
  'greet',
  {
    description: 'Says hello.',
    input: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
  ({ name }) => text(`Hello, ${String(name)}!`),
);
const endpoint = createEndpoint(server, { modern: modernEra(), legacy: legacyEra() });

// TRANSPORT=stdio|http|ws picks the transport (http here by default); PORT=0 picks a free port.
const transport = (process.env.TRANSPORT ?? 'http') as Transport;
if (!TRANSPORTS.includes(transport))
  throw new Error(`TRANSPORT must be one of ${TRANSPORTS.join(', ')}`);
const running = await serve(endpoint, {
  transport,
  port: Number(process.env.PORT ?? 3000),
  stopOnSignals: ['SIGINT', 'SIGTERM'],
});
// On stdio, stdout carries nothing but JSON-RPC lines: the greeting goes to stderr there.
const say = transport === 'stdio' ? console.error : console.log;
say(`greeter: serving ${transport}${running.url ? ` at ${running.url}` : ''}`);

await running.closed; // a signal arrived (or, on stdio, stdin ended)
await endpoint.close();
