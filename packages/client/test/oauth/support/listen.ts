import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** A node:http server on 127.0.0.1 and a free port, closed by `await using`. */
export interface Listening {
  server: Server;
  url: string;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts `handler` on 127.0.0.1:0. */
export async function listen(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>,
): Promise<Listening> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      Promise.resolve(handler(req, res, Buffer.concat(chunks).toString('utf8'))).catch((error) => {
        res.writeHead(500).end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    async [Symbol.asyncDispose]() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answers JSON. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify(body));
}
