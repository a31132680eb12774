import {
  ErrorCode,
  McpError,
  error,
  formElicitation,
  inputRequest,
  inputRequired,
  text,
} from '@rondo/protocol';
import type { RondoServer } from '@rondo/core';
import { z } from 'zod';
import { acceptedField, askUserName } from './rounds.js';

/**
 * The tools of the suite's `tasks-*` scenarios (the Tasks extension). A modern client that declares
 * the extension gets a task for each task-supporting tool; every other client gets an ordinary call.
 */
export function addTaskTools(server: RondoServer): void {
  addRunningTools(server);
  addInputTools(server);
}

/** Tools that run for a while, and one that never is a task. */
function addRunningTools(server: RondoServer): void {
  server.tool(
    'greet',
    {
      description: 'Greets by name, at once (never a task)',
      input: z.object({ name: z.string() }),
    },
    ({ name }) => text(`Hello, ${name}!`),
  );
  server.tool(
    'slow_compute',
    {
      description:
        'Sleeps for `seconds` seconds, reporting progress, then answers (a task when it can be)',
      input: z.object({ seconds: z.number().min(0).max(600), label: z.string().optional() }),
      task: 'optional',
    },
    async ({ seconds, label }, ctx) => {
      for (let second = 0; second < seconds; second += 1) {
        ctx.progress(second, seconds, `${second} of ${seconds} seconds`);
        await sleep(1000, ctx.signal);
      }
      return text(`Computed ${label ?? 'the answer'} after ${seconds} s`);
    },
  );
  server.tool(
    'failing_job',
    {
      description: 'Runs briefly, then answers with a tool error (only as a task)',
      task: 'required',
    },
    async (_args, ctx) => {
      await sleep(300, ctx.signal);
      return error('The job failed: its input was rejected');
    },
  );
  server.tool(
    'protocol_error_job',
    { description: 'Fails with a JSON-RPC error (a task when it can be)', task: 'optional' },
    async (_args, ctx) => {
      await sleep(100, ctx.signal);
      throw new McpError(ErrorCode.InternalError, 'The job hit an internal error');
    },
  );
}

/** Tools that ask for input inside their task, or (test_tool_with_task) before it. */
function addInputTools(server: RondoServer): void {
  server.tool(
    'confirm_delete',
    {
      description: 'Asks for a confirmation, then deletes (a task when it can be)',
      input: z.object({ filename: z.string() }),
      task: 'optional',
    },
    ({ filename }, ctx) => {
      const confirmed = acceptedField(ctx.inputResponses.confirm, 'confirm');
      if (ctx.inputResponses.confirm === undefined) {
        return inputRequired([
          inputRequest('confirm', formElicitation(`Delete ${filename}?`, CONFIRM_FORM)),
        ]);
      }
      return text(confirmed === true ? `Deleted ${filename}` : `Kept ${filename}`);
    },
  );
  server.tool(
    'multi_input',
    {
      description: 'Asks two questions at once, then reports both answers (a task when it can be)',
      task: 'optional',
    },
    (_args, ctx) => {
      const { first, second } = ctx.inputResponses;
      if (first === undefined || second === undefined) {
        return inputRequired([
          inputRequest('first', formElicitation('First value?', NAME_FORM)),
          inputRequest('second', formElicitation('Second value?', NAME_FORM)),
        ]);
      }
      return text(
        `Got ${String(acceptedField(first, 'name'))} and ${String(acceptedField(second, 'name'))}`,
      );
    },
  );
  server.tool(
    'test_tool_with_task',
    {
      description: 'Asks for a name in the request, then greets as a task',
      task: { support: 'required', startsAfterInput: true },
    },
    async (_args, ctx) => {
      const name = acceptedField(ctx.inputResponses.user_name, 'name');
      if (typeof name !== 'string') return inputRequired([askUserName()]);
      await sleep(100, ctx.signal);
      return text(`Hello, ${name}!`);
    },
  );
}

const CONFIRM_FORM = {
  type: 'object',
  properties: { confirm: { type: 'boolean' } },
  required: ['confirm'],
};
const NAME_FORM = {
  type: 'object',
  properties: { name: { type: 'string' }, confirm: { type: 'boolean' } },
};

/** Resolves after `ms`, or rejects as soon as `signal` aborts (a cancelled task stops sleeping). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
