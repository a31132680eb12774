import {
  contents,
  formElicitation,
  inputRequest,
  inputRequired,
  message,
  messages,
  roots,
  sampling,
  text,
  textContent,
  urlElicitation,
  type InputResponseValue,
  type JsonObject,
} from '@rondo/protocol';
import {
  createServer,
  type HandlerContext,
  type RondoServer,
  type ServerOptions,
} from '@rondo/core';

const NAME_SCHEMA: JsonObject = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
};
const COLOR_SCHEMA: JsonObject = {
  type: 'object',
  properties: { color: { type: 'string' } },
  required: ['color'],
};
const OK_SCHEMA: JsonObject = {
  type: 'object',
  properties: { ok: { type: 'boolean' } },
  required: ['ok'],
};

/** The answer to a name elicitation, as a greeting or the way the user refused. */
function greetingFor(answer: InputResponseValue): string {
  switch (answer.kind) {
    case 'accept':
      return `Hello, ${JSON.stringify(answer.content.name)}!`.replaceAll('"', '');
    case 'decline':
      return 'The user declined.';
    case 'cancel':
      return 'The user cancelled.';
    case 'sampling_result':
    case 'roots_result':
      return `Unexpected answer ${answer.kind}`;
  }
}

/** Everything the behaviour tests exercise, as one server. */
export function buildTestServer(options: Partial<ServerOptions> = {}): RondoServer {
  const server = createServer({
    name: 'adapter-2026-test',
    version: '1.2.3',
    instructions: 'Use the tools.',
    requestState: { key: 'test-key-0123456789abcdef-key-0123456789' },
    log: () => {},
    ...options,
  });
  server.tool('greet', { description: 'Asks for a name, then greets.' }, (_args, ctx) => {
    const answer = ctx.inputResponses.user_name;
    if (!answer)
      return inputRequired([
        inputRequest('user_name', formElicitation('What is your name?', NAME_SCHEMA)),
      ]);
    return greetingFor(answer);
  });
  server.tool('three_rounds', { description: 'Asks for a name, then a colour.' }, (_args, ctx) => {
    const state = ctx.requestState as { step: number; name?: string } | undefined;
    const answer = ctx.inputResponses;
    if (state === undefined) {
      return inputRequired(
        [inputRequest('step1', formElicitation('Step 1: your name?', NAME_SCHEMA))],
        { step: 1 },
      );
    }
    if (state.step === 1 && answer.step1?.kind === 'accept') {
      const name = JSON.stringify(answer.step1.content.name).replaceAll('"', '');
      return inputRequired(
        [inputRequest('step2', formElicitation('Step 2: your colour?', COLOR_SCHEMA))],
        { step: 2, name },
      );
    }
    if (state.step === 2 && answer.step2?.kind === 'accept') {
      return `${state.name} likes ${JSON.stringify(answer.step2.content.color).replaceAll('"', '')} (round ${ctx.round})`;
    }
    return 'unexpected';
  });
  server.tool('multiple_inputs', { description: 'Asks for everything at once.' }, (_args, ctx) => {
    const { user_name: name, greeting, client_roots: rootList } = ctx.inputResponses;
    if (!name || !greeting || !rootList) {
      return inputRequired(
        [
          inputRequest('user_name', formElicitation('What is your name?', NAME_SCHEMA)),
          inputRequest(
            'greeting',
            sampling([message('user', 'Generate a greeting')], { maxTokens: 50 }),
          ),
          inputRequest('client_roots', roots()),
        ],
        { asked: true },
      );
    }
    const sampled = greeting.kind === 'sampling_result' ? JSON.stringify(greeting.content) : '?';
    const rootCount = rootList.kind === 'roots_result' ? rootList.roots.length : -1;
    return `${greetingFor(name)} ${sampled} roots=${rootCount}`;
  });
  server.tool('state_only', { description: 'Takes a round with state only.' }, (_args, ctx) => {
    if (ctx.requestState === undefined) return inputRequired([], { waited: 1 });
    return `state-ok ${JSON.stringify(ctx.requestState)}`;
  });
  server.tool('needs_sampling', { description: 'Needs sampling.' }, (_args, ctx) => {
    const answer = ctx.inputResponses.capital_question;
    if (!answer) {
      return inputRequired([
        inputRequest(
          'capital_question',
          sampling([message('user', 'What is the capital of France?')], { maxTokens: 100 }),
        ),
      ]);
    }
    return answer.kind === 'sampling_result'
      ? `Model said ${JSON.stringify(answer.content)}`
      : 'no answer';
  });
  server.tool('sampling_with_tools', { description: 'Needs sampling with tools.' }, () =>
    inputRequired([
      inputRequest(
        'q',
        sampling([message('user', 'Use a tool')], {
          tools: [{ name: 't', inputSchema: { type: 'object' } }],
        }),
      ),
    ]),
  );
  server.tool('url_login', { description: 'Sends the user to a URL.' }, (_args, ctx) => {
    if (!ctx.inputResponses.login)
      return inputRequired([
        inputRequest('login', urlElicitation('Log in please', 'https://example.com/login')),
      ]);
    return `login ${ctx.inputResponses.login.kind}`;
  });
  server.tool('list_roots', { description: 'Asks for roots.' }, (_args, ctx) => {
    const answer = ctx.inputResponses.client_roots;
    if (!answer) return inputRequired([inputRequest('client_roots', roots())]);
    return answer.kind === 'roots_result'
      ? `Found ${answer.roots.length} root(s): ${answer.roots.map((r) => r.uri).join(',')}`
      : '?';
  });
  server.tool('endless', { description: 'Never completes.' }, (_args, ctx) =>
    inputRequired([], { round: ctx.round }),
  );
  server.tool(
    'echo_args',
    {
      description: 'Round-trips with arguments.',
      input: { type: 'object', properties: { x: { type: 'integer' } } },
    },
    (args, ctx) => {
      if (!ctx.inputResponses.confirm)
        return inputRequired([
          inputRequest('confirm', formElicitation('Please confirm', OK_SCHEMA)),
        ]);
      return `x=${String(args.x)}`;
    },
  );
  server.tool(
    'observe',
    { description: 'Reports progress and logs.' },
    async (_args, ctx: HandlerContext) => {
      ctx.log('debug', 'debug line');
      ctx.log('info', 'info line');
      ctx.log('error', { problem: 'error line' }, 'observer');
      ctx.progress(0, 100, 'start');
      ctx.progress(50, 100);
      ctx.progress(40, 100); // not an increase: dropped
      ctx.progress(100, 100, 'done');
      return 'observed';
    },
  );
  server.tool(
    'wait_for_cancel',
    { description: 'Waits until cancelled.' },
    (_args, ctx) =>
      new Promise((resolve) => {
        if (ctx.signal.aborted) resolve(text('aborted early'));
        ctx.signal.addEventListener('abort', () => resolve(text('aborted')));
      }),
  );
  server.tool('server_request', { description: 'Tries ctx.elicit().' }, async (_args, ctx) => {
    await ctx.elicit('name?', NAME_SCHEMA);
    return 'unreachable';
  });
  server.tool(
    'regional',
    {
      description: 'Mirrors arguments into headers.',
      input: {
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          count: { type: 'integer', 'x-mcp-header': 'Count' },
          flag: { type: 'boolean', 'x-mcp-header': 'Flag' },
          nested: {
            type: 'object',
            properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } },
          },
        },
      },
    },
    (args) => `region=${String(args.region)}`,
  );
  server.prompt('ask_context', { description: 'Asks for context first.' }, (_args, ctx) => {
    const answer = ctx.inputResponses.user_context;
    if (!answer) {
      return inputRequired([
        inputRequest(
          'user_context',
          formElicitation('What context should the prompt use?', {
            type: 'object',
            properties: { context: { type: 'string' } },
            required: ['context'],
          }),
        ),
      ]);
    }
    return messages([
      message(
        'user',
        `Context: ${answer.kind === 'accept' ? JSON.stringify(answer.content.context).replaceAll('"', '') : answer.kind}`,
      ),
    ]);
  });
  server.prompt(
    'with_args',
    { description: 'Echoes its arguments.', arguments: [{ name: 'a', required: true }] },
    (args) => messages([message('user', `a=${args.a}`)]),
  );
  server.resource('test://static', { name: 'static', mimeType: 'text/plain' }, (uri) =>
    contents([textContent(uri, 'text/plain', 'static text')]),
  );
  server.resource('test://guarded', { name: 'guarded', mimeType: 'text/plain' }, (uri, ctx) => {
    const answer = ctx.inputResponses.confirm;
    if (!answer)
      return inputRequired([
        inputRequest('confirm', formElicitation('Read the guarded resource?', OK_SCHEMA)),
      ]);
    return contents([
      textContent(
        uri,
        'text/plain',
        answer.kind === 'accept' && answer.content.ok ? 'secret' : 'refused',
      ),
    ]);
  });
  server.resourceTemplate('test://items/{id}', { name: 'item' }, (uri, vars) =>
    contents([textContent(uri, 'application/json', JSON.stringify({ id: vars.id }))]),
  );
  server.completion({ prompt: 'with_args' }, 'a', (value) =>
    ['alpha', 'apple', 'beta'].filter((v) => v.startsWith(value)),
  );
  return server;
}
