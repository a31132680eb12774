import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  SignJWT,
  calculateJwkThumbprint,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  type CryptoKey,
  type JWK,
} from 'jose';

/** A running authorization server that issues DPoP-bound JWT access tokens. */
export interface DpopAuthServer {
  readonly issuer: string;
  readonly jwksUrl: string;
  /** Mints an access token for `audience`, bound to `jkt` when given, as the token endpoint does. */
  mint(audience: string, jkt?: string): Promise<string>;
  close(): Promise<void>;
}

/** The one confidential client of {@link startDpopAuthServer}. */
export const DPOP_CLIENT = { clientId: 'machine', clientSecret: 'machine-secret' } as const;

/**
 * An OAuth authorization server on 127.0.0.1 whose tokens are RS256 JWTs (verifiable with the JWKS
 * it publishes): the client credentials grant for {@link DPOP_CLIENT}; with a valid DPoP proof of
 * the token request (RFC 9449 §5: `dpop+jwt`, signed by its `jwk`, `htm` POST, `htu` the token
 * endpoint) the token is bound to the proof's key (`cnf.jkt`, `token_type` DPoP).
 */
export async function startDpopAuthServer(): Promise<DpopAuthServer> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  let issuer = '';
  const mint = (audience: string, jkt?: string) => signToken(privateKey, issuer, audience, jkt);
  const server = createServer((req, res) => {
    void serve(req, res).catch(() => json(res, 500, { error: 'server_error' }));
  });
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', issuer).pathname;
    const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
    if (path === '/.well-known/oauth-authorization-server') {
      return json(res, 200, {
        issuer,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
        dpop_signing_alg_values_supported: ['ES256', 'RS256'],
      });
    }
    if (path === '/jwks') return json(res, 200, { keys: [jwk] });
    if (path !== '/token' || req.method !== 'POST') return json(res, 404, { error: 'not_found' });
    const basic = `Basic ${btoa(`${DPOP_CLIENT.clientId}:${DPOP_CLIENT.clientSecret}`)}`;
    if (req.headers.authorization !== basic) return json(res, 401, { error: 'invalid_client' });
    if (form.grant_type !== 'client_credentials')
      return json(res, 400, { error: 'unsupported_grant_type' });
    const proof = req.headers.dpop;
    const jkt = typeof proof === 'string' ? await tokenRequestKey(proof, `${issuer}/token`) : null;
    if (jkt === undefined) return json(res, 400, { error: 'invalid_dpop_proof' });
    const token = await mint(form.resource ?? '', jkt ?? undefined);
    json(res, 200, { access_token: token, token_type: jkt ? 'DPoP' : 'Bearer', expires_in: 600 });
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    mint,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function signToken(
  key: CryptoKey,
  issuer: string,
  audience: string,
  jkt: string | undefined,
): Promise<string> {
  return new SignJWT({
    scope: 'mcp',
    client_id: DPOP_CLIENT.clientId,
    ...(jkt ? { cnf: { jkt } } : {}),
  })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1', typ: 'at+jwt' })
    .setIssuer(issuer)
    .setSubject(DPOP_CLIENT.clientId)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(key);
}

/** The thumbprint of a valid token-request proof's key; undefined for an invalid proof. */
async function tokenRequestKey(proof: string, tokenEndpoint: string): Promise<string | undefined> {
  try {
    const header = decodeProtectedHeader(proof);
    if (header.typ !== 'dpop+jwt' || !header.jwk || !header.alg) return undefined;
    const { payload } = await jwtVerify(proof, await importJWK(header.jwk, header.alg));
    if (payload.htm !== 'POST' || payload.htu !== tokenEndpoint) return undefined;
    return await calculateJwkThumbprint(header.jwk);
  } catch {
    return undefined;
  }
}

function json(res: ServerResponse, status: number, value: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(value));
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) {
    text += String(chunk);
    if (text.length > 65_536) throw new Error('body too large');
  }
  return text;
}
