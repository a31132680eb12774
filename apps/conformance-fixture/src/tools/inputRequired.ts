import { inputRequired, text } from '@rondo/protocol';
import type { HandlerContext, RondoServer } from '@rondo/core';
import {
  acceptedField,
  askConfirm,
  askModel,
  askRoots,
  askString,
  askUserName,
  givenRoots,
  refused,
  sampledText,
} from './rounds.js';

/**
 * The round-hook tools (`input_required` results). Written once: a modern client gets multi
 * round-trip results, a legacy client gets real server-to-client requests from the legacy shim.
 */
export function addInputRequiredTools(server: RondoServer): void {
  const tool = (
    name: string,
    description: string,
    hook: (ctx: HandlerContext) => ReturnType<Hook>,
  ) =>
    server.tool(`test_input_required_result_${name}`, { description }, (_args, ctx) => hook(ctx));
  tool('elicitation', 'Asks for the user name with an elicitation, then greets', greet);
  tool('sampling', 'Asks the client model a question, then reports its answer', (ctx) => {
    const answer = sampledText(ctx.inputResponses.capital_question);
    if (answer === undefined) {
      return inputRequired([askModel('capital_question', 'What is the capital of France?', 100)]);
    }
    return text(`The model answered: ${answer}`);
  });
  tool('list_roots', 'Asks the client for its roots, then counts them', (ctx) => {
    const found = givenRoots(ctx.inputResponses.client_roots);
    if (!found) return inputRequired([askRoots('client_roots')]);
    return text(`Found ${found.length} root(s): ${found.map((root) => root.uri).join(', ')}`);
  });
  tool('request_state', 'Asks for a confirmation and checks its requestState round-trips', confirm);
  tool('tampered_state', 'Like request_state; a tampered requestState must be rejected', confirm);
  tool('multiple_inputs', 'Asks for a name, a model greeting and the roots in one round', gather);
  tool('multi_round', 'Asks for a name, then a favourite colour, over three rounds', twoSteps);
  tool('capabilities', 'Asks only with a capability the client declared', askDeclared);
}

type Hook = (ctx: HandlerContext) => ReturnType<typeof text> | ReturnType<typeof inputRequired>;

const greet: Hook = (ctx) => {
  const answer = ctx.inputResponses.user_name;
  if (refused(answer)) return text(`No name given (${answer?.kind}).`);
  const name = acceptedField(answer, 'name');
  if (typeof name !== 'string') return inputRequired([askUserName()]);
  return text(`Hello, ${name}!`);
};

const confirm: Hook = (ctx) => {
  const state = ctx.requestState as { phase?: string } | undefined;
  const ok = acceptedField(ctx.inputResponses.confirm, 'ok');
  if (state?.phase !== 'confirm' || typeof ok !== 'boolean') {
    return inputRequired([askConfirm()], { phase: 'confirm' });
  }
  return text(`state-ok: confirmed=${ok}`);
};

const gather: Hook = (ctx) => {
  const name = acceptedField(ctx.inputResponses.user_name, 'name');
  const greeting = sampledText(ctx.inputResponses.greeting);
  const found = givenRoots(ctx.inputResponses.client_roots);
  const missing = [
    ...(typeof name === 'string' ? [] : [askUserName()]),
    ...(greeting === undefined ? [askModel('greeting', 'Generate a greeting', 50)] : []),
    ...(found ? [] : [askRoots('client_roots')]),
  ];
  if (missing.length > 0) return inputRequired(missing, { gathering: true });
  return text(`Name: ${String(name)}; greeting: ${greeting}; roots: ${found?.length ?? 0}`);
};

const twoSteps: Hook = (ctx) => {
  const state = (ctx.requestState ?? {}) as { step?: number; name?: string };
  const stepOne = () =>
    inputRequired([askString('step1', 'Step 1: What is your name?', 'name')], { step: 1 });
  if (state.step === undefined) return stepOne();
  if (state.step === 1) {
    const name = acceptedField(ctx.inputResponses.step1, 'name');
    if (typeof name !== 'string') return stepOne();
    return inputRequired([askString('step2', 'Step 2: What is your favorite color?', 'color')], {
      step: 2,
      name,
    });
  }
  const color = acceptedField(ctx.inputResponses.step2, 'color');
  if (typeof color !== 'string') {
    return inputRequired(
      [askString('step2', 'Step 2: What is your favorite color?', 'color')],
      state,
    );
  }
  return text(`Hello, ${state.name ?? 'stranger'}! Your favorite color is ${color}.`);
};

const askDeclared: Hook = (ctx) => {
  const answers = Object.keys(ctx.inputResponses);
  if (answers.length > 0) return text(`Received: ${answers.join(', ')}`);
  const declared = ctx.clientCapabilities;
  if (declared.elicitation) return inputRequired([askUserName()]);
  if (declared.sampling) return inputRequired([askModel('question', 'Say hello', 20)]);
  if (declared.roots) return inputRequired([askRoots('client_roots')]);
  return text('The client declared no capability to ask with.');
};
