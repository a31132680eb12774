// The stdio edge: `serveStdio(endpoint)`, newline-delimited JSON-RPC on stdin and stdout.
export * from '@rondo/transport-stdio';
