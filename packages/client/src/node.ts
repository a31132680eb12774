/** The transports that need Node: a child process (stdio), the `ws` WebSocket client, and Streamable HTTP on `node:http`. */
export {
  stdioTransport,
  type StdioTransportOptions,
  type StdioClientTransport,
} from './transports/stdio.js';
export { webSocketTransport, type WebSocketTransportOptions } from './transports/webSocket.js';
export { nodeFetch, nodeHttpTransport, type NodeFetchOptions } from './transports/nodeFetch.js';
export { defaultEnvironment } from './transports/childEnvironment.js';
export { fileAssertion } from './oauth/fileAssertion.js';
