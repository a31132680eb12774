import {
  createServer,
  ErrorCode,
  McpError,
  serve,
  text,
  TRANSPORTS,
  type Transport,
} from '@rondo/server';

const server = createServer({ name: 'greeter', version: '1.0.0' })
  .tool(
    'greet',
    {
      description: 'Says hello.',
      input: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
    ({ name }) => text(`Hello, ${String(name)}!`),
  )
  .tool('shout', { description: 'Says hello, loudly (switched off below).' }, () => text('HELLO!'))
  // Middleware runs around every request, in both eras: this one logs each call to stderr and
  // refuses the `shout` tool.
  .use(async (call, next) => {
    const target = typeof call.params.name === 'string' ? call.params.name : '';
    console.error(`greeter: ${call.era} ${call.method} ${target}`);
    if (call.method === 'tools/call' && call.params.name === 'shout') {
      throw new McpError(ErrorCode.InvalidParams, 'shout is switched off on this server');
    }
    return next();
  });

// TRANSPORT=stdio|http|ws picks the transport (http here by default); PORT=0 picks a free port.
const transport = (process.env.TRANSPORT ?? 'http') as Transport;
if (!TRANSPORTS.includes(transport))
  throw new Error(`TRANSPORT must be one of ${TRANSPORTS.join(', ')}`);
const running = await serve(server, {
  transport,
  port: Number(process.env.PORT ?? 3000),
  stopOnSignals: ['SIGINT', 'SIGTERM'],
});
// Over http and ws, serve prints where it listens on stderr (quiet: true leaves it out):
//   rondo: serving greeter over http at http://127.0.0.1:3000/mcp
// On stdio it prints nothing: stdout carries only JSON-RPC lines.

// A signal arrived (or, on stdio, stdin ended): the transport and the server are closed.
await running.closed;
