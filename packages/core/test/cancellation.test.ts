import { describe, expect, it } from 'vitest';
import type { JsonRpcRequest } from '@rondo/protocol';
import type { Exchange } from '../src/index.js';
import {
  InFlightExchanges,
  LazyAbortController,
  LinkedCancellation,
  RequestCall,
  type CallSetup,
} from '../src/internal.js';
import { describeCancellationContract } from '@rondo/test-support/cancellationContract';

const REQUEST: JsonRpcRequest = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} };
const SETUP: CallSetup = {
  era: 'modern',
  revision: '2026-07-28',
  clientCapabilities: {},
  logThreshold: () => undefined,
  asker: { ask: () => Promise.reject(new Error('no client here')) },
};

/** A request in flight on one exchange of a channel, and the channel's exchanges. */
function requestOnChannel(): { call: RequestCall; exchanges: InFlightExchanges } {
  const exchanges = new InFlightExchanges(() => undefined);
  return { call: new RequestCall(REQUEST, exchanges.create(), SETUP, undefined), exchanges };
}

describeCancellationContract('LazyAbortController', () => {
  const controller = new LazyAbortController();
  return {
    cancellation: controller,
    abort: () => (controller.abort(new Error('stop')), controller.reason),
  };
});

describeCancellationContract('LinkedCancellation, aborted itself', () => {
  const linked = new LinkedCancellation(new LazyAbortController());
  const reason = new Error('cancelled');
  return { cancellation: linked, abort: () => (linked.abort(reason), reason) };
});

describeCancellationContract('LinkedCancellation, aborted through the one it follows', () => {
  const followed = new LazyAbortController();
  const reason = new Error('peer gone');
  return {
    cancellation: new LinkedCancellation(followed),
    abort: () => (followed.abort(reason), reason),
  };
});

describeCancellationContract("an exchange's, when its channel's peer goes away", () => {
  const exchanges = new InFlightExchanges(() => undefined);
  const exchange: Exchange = exchanges.create();
  const reason = new Error('peer gone');
  return { cancellation: exchange.cancellation, abort: () => (exchanges.abortAll(reason), reason) };
});

describeCancellationContract(
  "a handler's (RequestCall), when the exchange's peer goes away",
  () => {
    const { call, exchanges } = requestOnChannel();
    const reason = new Error('peer gone');
    return { cancellation: call.cancellation, abort: () => (exchanges.abortAll(reason), reason) };
  },
);

describeCancellationContract("a handler's (RequestCall), when middleware stops it", () => {
  const { call } = requestOnChannel();
  const reason = new Error('timed out');
  return { cancellation: call.cancellation, abort: () => (call.stop(reason), reason) };
});

describeCancellationContract("a handler's (RequestCall), when the client cancels it", () => {
  const { call } = requestOnChannel();
  return { cancellation: call.cancellation, abort: () => call.cancel('the client cancelled') };
});

describe('LinkedCancellation', () => {
  it('takes an abort of the one it follows that came while nobody listened', () => {
    const followed = new LazyAbortController();
    const linked = new LinkedCancellation(followed);
    followed.abort(new Error('gone'));
    expect(linked.aborted).toBe(true);
    expect(linked.reason).toBe(followed.reason);
  });

  it('leaves the one it follows alone when aborted itself', () => {
    const followed = new LazyAbortController();
    const linked = new LinkedCancellation(followed);
    linked.onAbort(() => undefined);
    linked.abort(new Error('cancelled'));
    expect(followed.aborted).toBe(false);
  });

  it('adds no listener to the one it follows until it has one itself, and none after unlink', () => {
    const followed = new LazyAbortController();
    let listening = 0;
    const counted = {
      get aborted() {
        return followed.aborted;
      },
      get reason() {
        return followed.reason;
      },
      get signal() {
        return followed.signal;
      },
      onAbort(listener: (reason: unknown) => void) {
        listening += 1;
        const stop = followed.onAbort(listener);
        return () => {
          listening -= 1;
          stop();
        };
      },
    };
    const linked = new LinkedCancellation(counted);
    expect(linked.aborted).toBe(false);
    expect(listening).toBe(0);
    linked.onAbort(() => undefined);
    linked.onAbort(() => undefined);
    expect(listening).toBe(1);
    linked.unlink();
    expect(listening).toBe(0);
    followed.abort(new Error('gone after the answer'));
    expect(linked.aborted).toBe(false);
  });
});

describe('RequestCall', () => {
  it('is cancelled by the client but not by middleware stopping it (which still answers)', () => {
    const stopped = requestOnChannel().call;
    stopped.stop(new Error('timed out'));
    expect(stopped.cancellation.aborted).toBe(true);
    expect(stopped.cancelled).toBe(false);
    const cancelled = requestOnChannel().call;
    cancelled.cancel('the client cancelled');
    expect(cancelled.cancelled).toBe(true);
    expect(cancelled.signal.reason).toBe(cancelled.cancellation.reason);
  });

  it('stops following its exchange once answered', () => {
    const peer = new LazyAbortController();
    const exchange: Exchange = { send: () => undefined, end: () => undefined, cancellation: peer };
    const call = new RequestCall(REQUEST, exchange, SETUP, undefined);
    call.cancellation.onAbort(() => undefined);
    call.answer();
    peer.abort(new Error('peer gone after the answer'));
    expect(call.cancellation.aborted).toBe(false);
  });
});
