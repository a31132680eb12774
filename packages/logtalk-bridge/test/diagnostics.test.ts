import { tracingChannel } from 'node:diagnostics_channel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPrologProvider,
  PROLOG_CALL_CHANNEL,
  PrologCallError,
  type PrologCallMessage,
  type PrologProvider,
} from '../src/index.js';
import { fixture, logSink, makeContext } from './helpers.js';

let provider: PrologProvider;
const channel = tracingChannel<unknown, PrologCallMessage>(PROLOG_CALL_CHANNEL);
const events: { event: string; message: PrologCallMessage }[] = [];
const record = (event: string) => (message: PrologCallMessage) =>
  void events.push({ event, message: { ...message } });
const subscribers = {
  start: record('start'),
  end: record('end'),
  asyncStart: record('asyncStart'),
  asyncEnd: record('asyncEnd'),
  error: record('error'),
};

beforeAll(async () => {
  provider = await createPrologProvider({
    files: [fixture('vocab.pl')],
    workers: 1,
    timeoutMs: 5000,
    onLog: logSink().onLog,
  });
});
afterAll(async () => {
  channel.unsubscribe(subscribers);
  await provider.close();
});

describe(`the ${PROLOG_CALL_CHANNEL} tracing channel`, () => {
  it('publishes nothing while nobody subscribes', async () => {
    await provider.callTool!('text', {}, makeContext());
    expect(events).toEqual([]);
  });

  it('reports a tool call with its method, tool, worker and provider, and its answer', async () => {
    channel.subscribe(subscribers);
    events.length = 0;
    await provider.callTool!('text', {}, makeContext());
    expect(events.map((e) => e.event)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    const [workerId] = provider.workerIds();
    expect(events[0]!.message).toEqual({
      method: 'tool',
      target: 'text',
      workerId,
      provider: 'prolog:vocab',
    });
    expect(events.at(-1)!.message.result).toEqual({ kind: 'text', text: 'plain text' });
  });

  it('reports a failed call with an error event carrying the PrologCallError', async () => {
    events.length = 0;
    await expect(provider.callTool!('bad', {}, makeContext())).rejects.toBeInstanceOf(
      PrologCallError,
    );
    expect(events.map((e) => e.event)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    expect(events.at(-1)!.message.error).toBeInstanceOf(PrologCallError);
  });

  it('names the URI of a resource read', async () => {
    events.length = 0;
    await provider.readResource!('file:///nowhere', makeContext());
    expect(events[0]!.message).toMatchObject({ method: 'resource', target: 'file:///nowhere' });
  });
});
