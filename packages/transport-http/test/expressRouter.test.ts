import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpRouter, type McpRouter } from '@rondo/transport-http';
import { fakeEndpoint } from './support/fakeEndpoint.js';
import { post, send } from './support/http.js';

describe('mcpRouter', () => {
  let listener: Server;
  let router: McpRouter;
  const start = async (app: express.Express): Promise<string> => {
    await new Promise<void>((resolve) => (listener = app.listen(0, '127.0.0.1', () => resolve())));
    return `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  };
  afterEach(async () => {
    await router.close();
    listener.closeAllConnections();
    await new Promise((resolve) => listener.close(resolve));
  });

  it('serves the MCP path and leaves other paths to the app', async () => {
    const app = express();
    app.use((router = mcpRouter(fakeEndpoint(), { path: '/rpc' })));
    app.get('/', (_req, res) => void res.send('home'));
    const base = await start(app);
    const answer = await post(`${base}/rpc`, { jsonrpc: '2.0', id: 1, method: 'initialize' });
    expect(answer.status).toBe(200);
    expect(answer.headers['mcp-session-id']).toBeDefined();
    expect((await send(`${base}/`, { method: 'GET' })).text).toBe('home');
  });

  it('uses a body that express.json() already parsed', async () => {
    const app = express();
    app.use(express.json());
    app.use((router = mcpRouter(fakeEndpoint())));
    const base = await start(app);
    const answer = await post(`${base}/mcp`, { jsonrpc: '2.0', id: 4, method: 'initialize' });
    expect(answer.json()).toMatchObject({ id: 4, result: {} });
  });

  it('serves the Protected Resource Metadata when auth is configured', async () => {
    const app = express();
    app.use(
      (router = mcpRouter(fakeEndpoint(), {
        auth: {
          resource: 'https://mcp.example/mcp',
          authorizationServers: ['https://auth.example'],
          verifyToken: () => undefined,
        },
      })),
    );
    const base = await start(app);
    const metadata = await send(`${base}/.well-known/oauth-protected-resource/mcp`, {
      method: 'GET',
    });
    expect(metadata.json()).toMatchObject({ resource: 'https://mcp.example/mcp' });
    const refused = await post(`${base}/mcp`, { jsonrpc: '2.0', id: 1, method: 'initialize' });
    expect(refused.status).toBe(401);
  });
});
