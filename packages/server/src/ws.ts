// The WebSocket edge: `serveWebSocket` and `attachWebSocket` (the `ws` package, an optional
// peer, is needed by this subpath only).
export * from '@rondo/transport-ws';
