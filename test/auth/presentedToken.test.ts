import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticTokenVerifier } from '@rondo/auth';
import { Client, httpTransport } from '@rondo/client';
import { webSocketTransport } from '@rondo/client/node';
import { presentedToken, verifyBearer } from '@rondo/core';
import { createServer, serve, text } from '@rondo/server';

// Issue 40 (each caller's identity upstream): a service exchanging its caller's token (RFC 8693)
// needs the token the caller's principal was verified from. It is carried beside the principal,
// never on it: a principal serialised, logged or audited never shows it.

const RESOURCE = 'http://127.0.0.1/mcp';
const auth = {
  resource: RESOURCE,
  authorizationServers: ['https://auth.example'],
  verifyToken: staticTokenVerifier({
    audience: RESOURCE,
    tokens: {
      'alice-token': { subject: 'alice', scopes: ['mcp'] },
      'bob-token': { subject: 'bob', scopes: ['mcp'] },
    },
  }),
};

describe('presentedToken', () => {
  it('gives the token a principal was verified from, and nothing on the principal shows it', async () => {
    const verdict = await verifyBearer('Bearer alice-token', auth);
    if (!verdict.ok) throw new Error(verdict.reason);
    expect(presentedToken(verdict.principal)).toBe('alice-token');
    expect(JSON.stringify(verdict.principal)).not.toContain('alice-token');
    expect(Object.values(verdict.principal)).not.toContain('alice-token');
  });

  it('gives nothing for an anonymous request or a principal no token verified', async () => {
    expect(presentedToken(undefined)).toBeUndefined();
    expect(presentedToken({ id: 'alice' })).toBeUndefined();
    const refused = await verifyBearer('Bearer forged', auth);
    expect(refused.ok).toBe(false);
  });

  describe.each(['http', 'ws'] as const)('over %s', (transport) => {
    let url: string;
    let close: () => Promise<void>;
    beforeAll(async () => {
      const server = createServer({ name: 'presented', version: '1.0.0' }).tool(
        'whoami',
        { description: 'The caller and whether its token is carried.' },
        (_args, ctx) => {
          const token = presentedToken(ctx.principal);
          const shown = JSON.stringify(ctx.principal);
          return text(`${ctx.principal?.id ?? '?'} ${token ?? '-'} ${shown.includes('token')}`);
        },
      );
      const running = await serve(server, { transport, port: 0, auth });
      url = running.url;
      close = () => running.close();
    });
    afterAll(async () => close?.());

    it.each(['alice', 'bob'])('a tool reads the token %s presented', async (who) => {
      const headers = { authorization: `Bearer ${who}-token` };
      const client = new Client({
        era: '2026-07-28',
        transport:
          transport === 'http'
            ? httpTransport({ url, headers })
            : webSocketTransport({ url, headers }),
      });
      await client.connect();
      const result = await client.callTool('whoami');
      expect(result.content[0]).toEqual({ type: 'text', text: `${who} ${who}-token false` });
      await client.close();
    });
  });
});
