export { serveStdio } from './stdioServer.js';
export {
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_MAX_LINE_BYTES,
  type StdioOptions,
  type StdioServer,
} from './options.js';
export { LineFramer, frameError, type FrameEvent } from './lineFramer.js';
