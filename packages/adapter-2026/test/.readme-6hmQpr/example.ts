import { formElicitation, inputRequest, inputRequired, type JsonRpcMessage } from '@rondo/protocol';
import { createEndpoint, createServer, type Exchange } from '@rondo/core';
import { modernEra } from '@rondo/adapter-2026';

const server = createServer({ name: 'greeter', version: '1.0.0', log: () => {} });
server.tool('greet', { description: 'Greets the user by name.' }, (_args, ctx) => {
  const answer = ctx.inputResponses.user_name;
  if (answer?.kind === 'accept') return `Hello, ${String(answer.content.name)}!`;
  return inputRequired([
    inputRequest(
      'user_name',
      formElicitation('What is your name?', {
        type: 'object',
        properties: { name: { type: 'string' } },
        required: ['name'],
      }),
    ),
  ]);
});

const endpoint = createEndpoint(server, { modern: modernEra() });
const connection = endpoint.connect({ send: () => {} });

/** Sends one request and resolves with the final answer, as a transport would write it. */
function request(id: number, params: Record<string, unknown>): Promise<any> {
  return new Promise((resolve) => {
    const exchange: Exchange = {
      send: () => {},
      end: (answer?: JsonRpcMessage) => resolve(answer),
      signal: new AbortController().signal,
    };
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    };
    connection.receive(
      { jsonrpc: '2.0', id, method: 'tools/call', params: { ...params, _meta } },
      exchange,
    );
  });
}

const first = await request(1, { name: 'greet' });
console.log(first.result.resultType); // input_required
console.log(first.result.inputRequests.user_name.method); // elicitation/create

const second = await request(2, {
  name: 'greet',
  inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } },
  requestState: first.result.requestState,
});
console.log(second.result.content[0].text); // Hello, Alice!
