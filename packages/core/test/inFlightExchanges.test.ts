import { describe, expect, it } from 'vitest';
import { InFlightExchanges } from '@rondo/core/internal';
import type { JsonRpcMessage } from '@rondo/protocol';

function channel(): { written: JsonRpcMessage[]; exchanges: InFlightExchanges } {
  const written: JsonRpcMessage[] = [];
  return { written, exchanges: new InFlightExchanges((message) => written.push(message)) };
}

const note = (n: number): JsonRpcMessage => ({ jsonrpc: '2.0', method: 'note', params: { n } });
const answer = (id: number): JsonRpcMessage => ({ jsonrpc: '2.0', id, result: {} });

describe('InFlightExchanges', () => {
  it('writes what an exchange sends and its final answer, in order, on the one channel', () => {
    const { written, exchanges } = channel();
    const exchange = exchanges.create();
    exchange.send(note(1));
    exchange.end(answer(1));
    expect(written).toEqual([note(1), answer(1)]);
  });

  it('counts open exchanges until they end', () => {
    const { exchanges } = channel();
    const first = exchanges.create();
    const second = exchanges.create();
    expect(exchanges.size).toBe(2);
    first.end();
    expect(exchanges.size).toBe(1);
    second.end(answer(2));
    expect(exchanges.size).toBe(0);
  });

  it('ends an exchange once: later sends and ends write nothing', () => {
    const { written, exchanges } = channel();
    const exchange = exchanges.create();
    exchange.end(answer(1));
    exchange.end(answer(1));
    exchange.send(note(2));
    expect(written).toEqual([answer(1)]);
  });

  it('reports idle after the last open exchange ends, once its answer is written', () => {
    const { written, exchanges } = channel();
    const idleAfter: number[] = [];
    exchanges.onIdle(() => idleAfter.push(written.length));
    const first = exchanges.create();
    const second = exchanges.create();
    first.end(answer(1));
    expect(idleAfter).toEqual([]);
    second.end(answer(2));
    expect(idleAfter).toEqual([2]);
  });

  it('aborts every open cancellation with the reason given and forgets the exchanges', () => {
    const { exchanges } = channel();
    const read = exchanges.create();
    const unread = exchanges.create();
    const readSignal = read.cancellation.signal;
    const reason = new Error('peer gone');
    exchanges.abortAll(reason);
    expect(exchanges.size).toBe(0);
    expect(readSignal.aborted).toBe(true);
    expect(readSignal.reason).toBe(reason);
    expect(unread.cancellation.reason).toBe(reason);
  });

  it('aborts with an AbortError when no reason is given', () => {
    const { exchanges } = channel();
    const exchange = exchanges.create();
    exchanges.abortAll();
    expect(exchange.cancellation.aborted).toBe(true);
    expect((exchange.cancellation.reason as Error).name).toBe('AbortError');
    expect(exchange.cancellation.signal.reason).toBe(exchange.cancellation.reason);
  });

  it('leaves an ended exchange alone when the rest are aborted', () => {
    const { exchanges } = channel();
    const ended = exchanges.create();
    ended.end();
    exchanges.create();
    exchanges.abortAll(new Error('peer gone'));
    expect(ended.cancellation.aborted).toBe(false);
  });
});
