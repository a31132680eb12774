import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { basicAuthorization, json, startAuthListener } from './authServerBase.js';

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
  const listener = await startAuthListener(async ({ req, res, url, form }, issuer) => {
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return json(res, 200, {
        issuer,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
        dpop_signing_alg_values_supported: ['ES256', 'RS256'],
      });
    }
    if (url.pathname !== '/token' || req.method !== 'POST') {
      return json(res, 404, { error: 'not_found' });
    }
    if (req.headers.authorization !== basicAuthorization(DPOP_CLIENT)) {
      return json(res, 401, { error: 'invalid_client' });
    }
    if (form.grant_type !== 'client_credentials')
      return json(res, 400, { error: 'unsupported_grant_type' });
    const proof = req.headers.dpop;
    const jkt = typeof proof === 'string' ? await tokenRequestKey(proof, `${issuer}/token`) : null;
    if (jkt === undefined) return json(res, 400, { error: 'invalid_dpop_proof' });
    const token = await mint(form.resource ?? '', jkt ?? undefined);
    json(res, 200, { access_token: token, token_type: jkt ? 'DPoP' : 'Bearer', expires_in: 600 });
  });
  const mint = (audience: string, jkt?: string): Promise<string> =>
    listener.sign(
      { scope: 'mcp', client_id: DPOP_CLIENT.clientId, ...(jkt ? { cnf: { jkt } } : {}) },
      DPOP_CLIENT.clientId,
      audience,
    );
  return {
    issuer: listener.issuer,
    jwksUrl: listener.jwksUrl,
    mint,
    close: () => listener.close(),
  };
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
