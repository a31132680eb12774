import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  createServer,
  text,
  serve,
  type OAuthResourceOptions,
  type Transport,
} from '@rondo/server';

// Issue 31, point 1: `auth` is honoured by every transport that can carry a token, and refused
// where none can (stdio), at compile time where the transport is known and at start otherwise.

const RESOURCE = 'http://127.0.0.1/ws';

const auth: OAuthResourceOptions = {
  resource: RESOURCE,
  authorizationServers: ['https://auth.example'],
  requiredScopes: ['mcp:read'],
  verifyToken: (token) =>
    ({
      good: { subject: 'alice', scopes: ['mcp:read'], audience: RESOURCE },
      narrow: { subject: 'carol', scopes: [], audience: RESOURCE },
    })[token],
};

function whoAmIServer() {
  return createServer({
    name: 'who',
    version: '1.0.0',
    requestState: { key: 'auth-test-key-0123456789abcdef0123456789' },
  }).tool('whoami', { description: 'Names the caller.' }, (_args, ctx) =>
    text(ctx.principal?.id ?? 'anonymous'),
  );
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/** Attempts an upgrade; resolves with the refusal's status and headers, or `open` with the socket. */
function upgrade(url: string, headers: Record<string, string>): Promise<Answer | WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, ['mcp'], { headers });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
      res.resume();
      socket.terminate();
    });
    socket.once('error', reject);
  });
}

function call(socket: WebSocket, id: number, name: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer): void => {
      const message = JSON.parse(String(data)) as Record<string, unknown>;
      if (message.id !== id) return;
      socket.off('message', onMessage);
      resolve(message);
    };
    socket.on('message', onMessage);
    socket.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: {
          name,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'auth-test', version: '1.0.0' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    );
  });
}

describe('serve({ transport: "ws", auth })', () => {
  it('refuses an upgrade without a token with 401 and the challenge HTTP gives', async () => {
    const running = await serve(whoAmIServer(), { transport: 'ws', auth });
    try {
      const answer = (await upgrade(running.url, {})) as Answer;
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toBe(
        'Bearer scope="mcp:read", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/ws"',
      );
      const invalid = (await upgrade(running.url, { authorization: 'Bearer forged' })) as Answer;
      expect(invalid.status).toBe(401);
      expect(invalid.headers['www-authenticate']).toContain('error="invalid_token"');
    } finally {
      await running.close();
    }
  });

  it('refuses a token without the required scopes with 403 insufficient_scope', async () => {
    const running = await serve(whoAmIServer(), { transport: 'ws', auth });
    try {
      const answer = (await upgrade(running.url, { authorization: 'Bearer narrow' })) as Answer;
      expect(answer.status).toBe(403);
      expect(answer.headers['www-authenticate']).toContain('error="insufficient_scope"');
    } finally {
      await running.close();
    }
  });

  it('upgrades with a valid token and runs every call as its principal', async () => {
    const running = await serve(whoAmIServer(), { transport: 'ws', auth });
    try {
      const socket = (await upgrade(running.url, { authorization: 'Bearer good' })) as WebSocket;
      const answer = await call(socket, 1, 'whoami');
      expect(answer.result).toMatchObject({ content: [{ type: 'text', text: 'alice' }] });
      socket.close();
    } finally {
      await running.close();
    }
  });

  it('serves the Protected Resource Metadata the challenge points at', async () => {
    const running = await serve(whoAmIServer(), { transport: 'ws', auth });
    try {
      const port = new URL(running.url).port;
      const response = await fetch(
        `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/ws`,
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        resource: RESOURCE,
        authorization_servers: ['https://auth.example'],
      });
    } finally {
      await running.close();
    }
  });
});

describe('serve({ transport: "stdio", auth })', () => {
  it('is refused at start with a configuration error, the server closed', async () => {
    const transport = 'stdio' as Transport;
    // @ts-expect-error: stdio carries no token; a transport that may be stdio takes no `auth`.
    const started = serve(whoAmIServer(), { transport, auth });
    await expect(started).rejects.toThrow(/`auth` needs a transport that carries a bearer token/);
  });

  it('does not compile with a literal stdio transport', () => {
    // Only compiled: the type test is the `@ts-expect-error` (pnpm typecheck fails without the error).
    const start = (): unknown =>
      // @ts-expect-error: `auth` is `never` on stdio.
      serve(whoAmIServer(), { transport: 'stdio', auth });
    expect(typeof start).toBe('function');
  });
});
