import type { HandlerContext } from '@rondo/core';
import type { InputResponseValue, Json, JsonObject } from '@rondo/protocol';
import { fileURLToPath } from 'node:url';
import { testHandlerContext } from '@rondo/test-support/handlerContext';

/** Absolute path of a test fixture. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
}

/** What a test context recorded while a call ran. */
export interface Recorded {
  events: string[];
  elicited: { message: string; schema: JsonObject }[];
}

/** A HandlerContext for calling a provider directly, recording progress and elicitations. */
export function makeContext(
  overrides: Partial<HandlerContext> & { answers?: InputResponseValue[] } = {},
): HandlerContext & Recorded {
  const events: string[] = [];
  const elicited: Recorded['elicited'] = [];
  const answers = [...(overrides.answers ?? [])];
  const base = testHandlerContext({
    progress: (value: number, total?: number, message?: string) =>
      events.push(`progress ${value}/${total ?? '-'} ${message ?? ''}`.trim()),
    elicit: async (message: string, schema: JsonObject) => {
      elicited.push({ message, schema });
      events.push(`elicit ${message}`);
      return answers.shift() ?? { kind: 'cancel' };
    },
    sample: () => Promise.reject(new Error('no sampling in tests')),
    listRoots: () => Promise.resolve([]),
    ...overrides,
  });
  // Assigned, not spread: the context's signal stays a getter, made only when read.
  return Object.assign(base, { events, elicited });
}

/** The next round's context: the previous round's state and these answers. */
export function nextRound(
  state: Json | undefined,
  inputResponses: Record<string, InputResponseValue>,
  round = 2,
): HandlerContext & Recorded {
  return makeContext({ requestState: state, inputResponses, round });
}

/** Collects log lines of a provider for assertions. */
export function logSink(): {
  lines: string[];
  onLog: (entry: { workerId?: number; source: string; message: string }) => void;
} {
  const lines: string[] = [];
  return { lines, onLog: (e) => lines.push(`#${e.workerId ?? '-'} ${e.source}: ${e.message}`) };
}
