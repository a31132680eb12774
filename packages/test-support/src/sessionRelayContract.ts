import { describe, expect, it, vi } from 'vitest';
import type { SessionRelay } from '@rondo/core';
import type { JsonRpcMessage } from '@rondo/protocol';
import { pause, withOpened, type OpenedSeam } from './seamContract.js';

const ANSWER: JsonRpcMessage = { jsonrpc: '2.0', id: 7, result: { action: 'accept' } };

/**
 * The rules every {@link SessionRelay} keeps, run against one implementation: `open(count)` gives
 * the relays of `count` processes of one endpoint (for relays in memory, peers on one memory).
 */
export function describeSessionRelayContract(
  name: string,
  open: (count: number) => Promise<OpenedSeam<SessionRelay>>,
): void {
  describe(`the session relay contract: ${name}`, () => {
    it(
      'relays a session message to the other processes only, in order',
      withOpened(open, 3, async (relays) => {
        const heard = relays.map(() => [] as [string, JsonRpcMessage][]);
        relays.forEach((relay, index) =>
          relay.receive((sessionId, message) => heard[index]!.push([sessionId, message])),
        );
        const cancel: JsonRpcMessage = {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: 3 },
        };
        await relays[0]!.forward('session-1', ANSWER);
        await relays[0]!.forward('session-2', cancel);
        await vi.waitFor(() => expect(heard.map((list) => list.length)).toEqual([0, 2, 2]));
        expect(heard[1]).toEqual([
          ['session-1', ANSWER],
          ['session-2', cancel],
        ]);
        expect(heard[2]).toEqual(heard[1]);
        await pause(50);
        expect(heard[0]).toEqual([]);
      }),
    );

    it(
      'stops a listener that stopped receiving',
      withOpened(open, 2, async ([one, two]) => {
        const stopped: string[] = [];
        const kept: string[] = [];
        const stop = two!.receive((sessionId) => stopped.push(sessionId));
        two!.receive((sessionId) => kept.push(sessionId));
        await one!.forward('a', ANSWER);
        await vi.waitFor(() => expect(stopped).toEqual(['a']));
        stop();
        await one!.forward('b', ANSWER);
        await vi.waitFor(() => expect(kept).toEqual(['a', 'b']));
        await pause(50);
        expect(stopped).toEqual(['a']);
      }),
    );
  });
}
