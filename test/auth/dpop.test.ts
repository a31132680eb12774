import { createHash, randomUUID } from 'node:crypto';
import { SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { dpopProofVerifier, jwksVerifier } from '@rondo/auth';
import { Client, clientCredentials, httpTransport } from '@rondo/client';
import { createServer, serve, text } from '@rondo/server';
import {
  DPOP_CLIENT,
  startDpopAuthServer,
  type DpopAuthServer,
} from '../support/dpopAuthServer.js';
import { freePort } from '../support/nginx.js';

// Issue 43, done-when 2: DPoP-bound tokens (RFC 9449, the MCP DPoP extension) on the server, both
// eras, over HTTP and at a WebSocket upgrade: a valid proof with a bound token is accepted; the same
// token as Bearer (DPoP on or off), a proof from another key, a wrong htm or htu, a stale or future
// iat, a missing or wrong ath, a replayed proof are refused with the challenge's error.

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'dpop-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const LIST_TOOLS = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } };
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'dpop-test', version: '1.0.0' },
  },
};

interface ProofKey {
  privateKey: CryptoKey;
  jkt: string;
  jwk: Awaited<ReturnType<typeof exportJWK>>;
}

async function proofKey(): Promise<ProofKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk) };
}

/** A DPoP proof, with every claim overridable (`undefined` leaves it out). */
function proof(key: ProofKey, claims: Record<string, unknown>): Promise<string> {
  const defined = Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined));
  return new SignJWT({ jti: randomUUID(), iat: Math.floor(Date.now() / 1000), ...defined })
    .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: key.jwk })
    .sign(key.privateKey);
}

const ath = (token: string) => createHash('sha256').update(token).digest('base64url');

function toolServer() {
  return createServer({
    name: 'bound',
    version: '1.0.0',
    requestState: { key: 'dpop-test-key-0123456789abcdef0123456789abcd' },
  }).tool('whoami', { description: 'Who calls.' }, (_args, ctx) => text(ctx.principal?.id ?? '?'));
}

async function serveWith(
  as: DpopAuthServer,
  transport: 'http' | 'ws',
  dpop: 'required' | 'allowed' | undefined,
) {
  const port = await freePort();
  const url = `${transport === 'http' ? 'http' : 'ws'}://127.0.0.1:${port}/${transport === 'http' ? 'mcp' : 'ws'}`;
  const resource = url.replace(/^ws/, 'http');
  const running = await serve(toolServer(), {
    transport,
    port,
    quiet: true,
    auth: {
      resource,
      authorizationServers: [as.issuer],
      verifyToken: jwksVerifier({ issuer: as.issuer, audience: resource, jwksUrl: as.jwksUrl }),
      ...(dpop ? { dpop: { mode: dpop, proofs: dpopProofVerifier() } } : {}),
    },
  });
  return { url, resource, close: () => running.close() };
}

function post(url: string, body: object, headers: Record<string, string>) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': body === INITIALIZE ? '2025-11-25' : '2026-07-28',
      ...(body === LIST_TOOLS ? { 'mcp-method': 'tools/list' } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

describe('DPoP-bound tokens over Streamable HTTP', () => {
  let as: DpopAuthServer;
  let required: Awaited<ReturnType<typeof serveWith>>;
  let off: Awaited<ReturnType<typeof serveWith>>;
  let allowed: Awaited<ReturnType<typeof serveWith>>;
  let key: ProofKey;
  let bound: string;
  beforeAll(async () => {
    as = await startDpopAuthServer();
    required = await serveWith(as, 'http', 'required');
    off = await serveWith(as, 'http', undefined);
    allowed = await serveWith(as, 'http', 'allowed');
    key = await proofKey();
    bound = await as.mint(required.resource, key.jkt);
  });
  afterAll(async () => {
    await required?.close();
    await off?.close();
    await allowed?.close();
    await as?.close();
  });

  const good = (token = bound, url = required.url) =>
    proof(key, { htm: 'POST', htu: url, ath: ath(token) });

  it('a client with a DPoP-bound token is served in both eras', async () => {
    for (const era of ['2026-07-28', '2025-11-25'] as const) {
      const client = new Client({
        transport: httpTransport({
          url: required.url,
          authorizer: clientCredentials({ ...DPOP_CLIENT, dpop: true }),
        }),
        era,
        clientInfo: { name: 'dpop-test', version: '1.0.0' },
      });
      await client.connect();
      const result = await client.callTool('whoami', {});
      expect(result.content).toEqual([{ type: 'text', text: DPOP_CLIENT.clientId }]);
      await client.close();
    }
  });

  it('accepts a valid proof with its bound token, for a legacy initialize too', async () => {
    for (const body of [LIST_TOOLS, INITIALIZE]) {
      const response = await post(required.url, body, {
        authorization: `DPoP ${bound}`,
        dpop: await good(),
      });
      expect(response.status, JSON.stringify(body)).toBe(200);
      await response.body?.cancel();
    }
  });

  it('refuses each bad proof with invalid_dpop_proof, in both eras', async () => {
    const other = await proofKey();
    const now = Math.floor(Date.now() / 1000);
    const cases: Record<string, Promise<string>> = {
      'another key': proof(other, { htm: 'POST', htu: required.url, ath: ath(bound) }),
      'wrong htm': proof(key, { htm: 'GET', htu: required.url, ath: ath(bound) }),
      'wrong htu': proof(key, { htm: 'POST', htu: `${required.url}/elsewhere`, ath: ath(bound) }),
      'stale iat': proof(key, { htm: 'POST', htu: required.url, ath: ath(bound), iat: now - 900 }),
      'future iat': proof(key, { htm: 'POST', htu: required.url, ath: ath(bound), iat: now + 900 }),
      'missing ath': proof(key, { htm: 'POST', htu: required.url }),
      'wrong ath': proof(key, { htm: 'POST', htu: required.url, ath: ath('another token') }),
    };
    for (const [name, made] of Object.entries(cases)) {
      for (const body of [LIST_TOOLS, INITIALIZE]) {
        const response = await post(required.url, body, {
          authorization: `DPoP ${bound}`,
          dpop: await made,
        });
        expect(response.status, name).toBe(401);
        const challenge = response.headers.get('www-authenticate') ?? '';
        expect(challenge, name).toMatch(/^DPoP algs="[^"]+", error="invalid_dpop_proof"/);
        expect(challenge, name).toContain('resource_metadata=');
        await response.body?.cancel();
      }
    }
  });

  it('refuses a replayed proof and a request without one', async () => {
    const once = await good();
    const first = await post(required.url, LIST_TOOLS, {
      authorization: `DPoP ${bound}`,
      dpop: once,
    });
    expect(first.status).toBe(200);
    await first.body?.cancel();
    const again = await post(required.url, LIST_TOOLS, {
      authorization: `DPoP ${bound}`,
      dpop: once,
    });
    expect(again.status).toBe(401);
    expect(again.headers.get('www-authenticate')).toContain('the proof was used before');
    const none = await post(required.url, LIST_TOOLS, { authorization: `DPoP ${bound}` });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('error="invalid_dpop_proof"');
  });

  it('never accepts a bound token as Bearer: DPoP required, allowed or off', async () => {
    for (const server of [required, allowed, off]) {
      const token = await as.mint(server.resource, key.jkt);
      const response = await post(server.url, LIST_TOOLS, { authorization: `Bearer ${token}` });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
      await response.body?.cancel();
    }
    const plain = await post(off.url, LIST_TOOLS, {
      authorization: `Bearer ${await as.mint(off.resource, key.jkt)}`,
    });
    expect(plain.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
  });

  it('takes an unbound Bearer token where DPoP is allowed, not where it is required', async () => {
    const allowedToken = await as.mint(allowed.resource);
    const ok = await post(allowed.url, LIST_TOOLS, { authorization: `Bearer ${allowedToken}` });
    expect(ok.status).toBe(200);
    await ok.body?.cancel();
    const requiredToken = await as.mint(required.resource);
    const refused = await post(required.url, LIST_TOOLS, {
      authorization: `Bearer ${requiredToken}`,
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^DPoP .*error="invalid_token"/);
    const unbound = await post(required.url, LIST_TOOLS, {
      authorization: `DPoP ${requiredToken}`,
      dpop: await good(requiredToken),
    });
    expect(unbound.status).toBe(401);
    expect(unbound.headers.get('www-authenticate')).toContain('not bound to a key');
  });

  it('publishes DPoP in the protected resource metadata', async () => {
    const metadata = await fetch(
      `${new URL(required.url).origin}/.well-known/oauth-protected-resource/mcp`,
    );
    expect(await metadata.json()).toMatchObject({
      dpop_bound_access_tokens_required: true,
      dpop_signing_alg_values_supported: expect.arrayContaining(['ES256', 'RS256']),
    });
  });
});

describe('DPoP-bound tokens at a WebSocket upgrade', () => {
  let as: DpopAuthServer;
  let server: Awaited<ReturnType<typeof serveWith>>;
  beforeAll(async () => {
    as = await startDpopAuthServer();
    server = await serveWith(as, 'ws', 'required');
  });
  afterAll(async () => {
    await server?.close();
    await as?.close();
  });

  /** The upgrade's outcome: `open`, or the refusal's status and challenge. */
  function upgrade(headers: Record<string, string>): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(server.url, ['mcp'], { headers });
      socket.once('open', () => {
        socket.close();
        resolve('open');
      });
      socket.once('unexpected-response', (_req, res) => {
        resolve(`${res.statusCode} ${String(res.headers['www-authenticate'])}`);
        res.resume();
        socket.terminate();
      });
      socket.once('error', reject);
    });
  }

  it('upgrades with a valid proof for GET to its URL, and refuses the rest', async () => {
    const key = await proofKey();
    const bound = await as.mint(server.resource, key.jkt);
    const valid = () => proof(key, { htm: 'GET', htu: server.url, ath: ath(bound) });
    expect(await upgrade({ authorization: `DPoP ${bound}`, dpop: await valid() })).toBe('open');
    expect(await upgrade({ authorization: `Bearer ${bound}` })).toMatch(
      /^401 DPoP .*error="invalid_token"/,
    );
    const post = await proof(key, { htm: 'POST', htu: server.url, ath: ath(bound) });
    expect(await upgrade({ authorization: `DPoP ${bound}`, dpop: post })).toMatch(
      /^401 DPoP .*error="invalid_dpop_proof"/,
    );
    const other = await proofKey();
    const foreign = await proof(other, { htm: 'GET', htu: server.url, ath: ath(bound) });
    expect(await upgrade({ authorization: `DPoP ${bound}`, dpop: foreign })).toMatch(
      /^401 DPoP .*error="invalid_dpop_proof"/,
    );
  });
});
