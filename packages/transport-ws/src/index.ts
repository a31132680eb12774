export { attachWebSocket, type AttachOptions, type WebSocketAttachment } from './attach.js';
export type { WebSocketStats, SocketStats } from './stats.js';
export { serveWebSocket, type ServeOptions, type WebSocketServerHandle } from './serve.js';
export {
  MCP_SUBPROTOCOL,
  DEFAULT_PATH,
  DEFAULT_HOST,
  WEBSOCKET_DEFAULTS,
  type WebSocketOptions,
  type KeepAliveOptions,
  type BackpressureOptions,
  CLOSE_UNSUPPORTED_DATA,
} from './options.js';
