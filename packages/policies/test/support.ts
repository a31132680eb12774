import { Client, httpTransport } from '@rondo/client';
import { createServer, serve, type RondoServer } from '@rondo/server';

const RESOURCE = 'http://127.0.0.1/mcp';

/** A test server over real HTTP whose tokens read `<principal>[:<scope>,<scope>]`. */
export interface PolicyServer {
  server: RondoServer;
  url: string;
  /** A client whose token is `token`, in `era`. */
  client(token: string, era?: '2026-07-28' | '2025-11-25'): Promise<Client>;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1, registered by `build`, with bearer tokens naming principals. */
export async function startPolicyServer(
  build: (server: RondoServer) => void,
): Promise<PolicyServer> {
  const server = createServer({
    name: 'policies',
    version: '1.0.0',
    requestState: { key: 'policies-test-key-0123456789abcdef0123456789ab' },
    log: () => undefined,
  });
  build(server);
  const running = await serve(server, {
    transport: 'http',
    port: 0,
    quiet: true,
    auth: {
      resource: RESOURCE,
      authorizationServers: ['https://auth.example'],
      verifyToken: (token) => {
        const [id, scopes] = token.split(':');
        return { subject: id!, scopes: scopes ? scopes.split(',') : [], audience: RESOURCE };
      },
    },
  });
  const clients: Client[] = [];
  return {
    server,
    url: running.url,
    async client(token, era = '2026-07-28') {
      const client = new Client({
        era,
        transport: httpTransport({
          url: running.url,
          headers: { authorization: `Bearer ${token}` },
        }),
      });
      await client.connect();
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
      await running.close();
    },
  };
}
