/** A handler context for calling server operations directly in tests (the shared one, by its core name). */
export { testHandlerContext as testContext } from '@rondo/test-support/handlerContext';
