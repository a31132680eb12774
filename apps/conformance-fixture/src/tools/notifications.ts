import { text } from '@rondo/protocol';
import { z } from 'zod';
import type { RondoServer } from '@rondo/core';
import { pause } from '../media.js';

const STEP_MS = 50;

/** The tools that log and report progress while they run, and the slow one used for resumption. */
export function addNotificationTools(server: RondoServer): void {
  server
    .tool(
      'test_tool_with_logging',
      { description: 'Tests tool that emits log messages during execution' },
      async (_args, ctx) => {
        ctx.log('info', 'Tool execution started');
        await pause(STEP_MS, ctx.signal);
        ctx.log('info', 'Tool processing data');
        await pause(STEP_MS, ctx.signal);
        ctx.log('info', 'Tool execution completed');
        return text('Tool with logging executed successfully');
      },
    )
    .tool(
      'test_tool_with_progress',
      { description: 'Tests tool that reports progress notifications' },
      async (_args, ctx) => {
        ctx.progress(0, 100, 'Started');
        await pause(STEP_MS, ctx.signal);
        ctx.progress(50, 100, 'Halfway');
        await pause(STEP_MS, ctx.signal);
        ctx.progress(100, 100, 'Done');
        // A gap before the result keeps the last progress out of the result's chunk: some clients
        // handle notifications a tick late and drop one that arrives together with its response.
        await pause(STEP_MS, ctx.signal);
        return text('Tool with progress executed successfully');
      },
    )
    .tool(
      'test_logging_tool',
      {
        description:
          'Logs at info level; logs reach a modern client only when it asked for a log level',
      },
      (_args, ctx) => {
        ctx.log('info', 'test_logging_tool ran');
        return text('Logging tool executed');
      },
    )
    .tool(
      'test_reconnection',
      {
        description:
          'Closes its response stream mid-call (SSE polling); the result comes on the resumed stream',
      },
      async (_args, ctx) => {
        // The client resumes with GET and Last-Event-ID; the result waits in the event store.
        ctx.closeStream();
        await pause(500, ctx.signal);
        return text('Reconnection test completed');
      },
    )
    .tool(
      'test_slow_tool',
      {
        description:
          'Sleeps for `ms` milliseconds (default 10 s) unless cancelled; for cancellation tests',
        input: z.object({ ms: z.number().int().min(0).optional() }),
      },
      async (args, ctx) => {
        const ms = args.ms ?? 10_000;
        await pause(ms, ctx.signal);
        return text(ctx.signal.aborted ? 'Cancelled' : `Slept ${ms} ms`);
      },
    );
}
