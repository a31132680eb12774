/** The transports that need Node: a child process (stdio) and the `ws` WebSocket client. */
export {
  stdioTransport,
  type StdioTransportOptions,
  type StdioClientTransport,
} from './transports/stdio.js';
export { webSocketTransport, type WebSocketTransportOptions } from './transports/webSocket.js';
