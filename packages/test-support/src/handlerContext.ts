import type { HandlerContext } from '@rondo/core';
import { LazyAbortController } from '@rondo/core/internal';

/**
 * A handler context for calling server operations or a provider directly in tests: a first
 * modern round with no client capabilities, no answers and no state. Progress and log go nowhere;
 * asking the client (elicit, sample, roots) is refused unless an override supplies it.
 */
export function testHandlerContext(overrides: Partial<HandlerContext> = {}): HandlerContext {
  const refuse = () => Promise.reject(new Error('not available in this test'));
  const cancellation = overrides.cancellation ?? new LazyAbortController();
  return {
    era: 'modern',
    revision: '2026-07-28',
    clientCapabilities: {},
    inputResponses: {},
    requestState: undefined,
    round: 1,
    cancellation,
    get signal() {
      return cancellation.signal;
    },
    principal: undefined,
    progress: () => undefined,
    log: () => undefined,
    elicit: refuse,
    sample: refuse,
    listRoots: refuse,
    closeStream: () => undefined,
    closeSessionStream: () => undefined,
    ...overrides,
  };
}
