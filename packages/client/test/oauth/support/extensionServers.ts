import { createHash, randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { json, listen, type Listening } from './listen.js';

/** A checked DPoP proof: its claims and the thumbprint of its key. */
export interface CheckedProof {
  jkt: string;
  claims: Record<string, unknown>;
}

/**
 * Checks a DPoP proof as RFC 9449 §4.3 says, for a `method` request to `url`: `typ`, the embedded
 * public key and the signature, `htm`, `htu`, a recent `iat`, `ath` when a token is presented, and
 * the nonce when one is required. Returns what is wrong, as a string, or the checked proof.
 */
export async function checkProof(
  proof: string | undefined,
  method: string,
  url: string,
  expected: { token?: string; nonce?: string } = {},
): Promise<CheckedProof | string> {
  if (!proof) return 'no proof';
  const header = decodeProtectedHeader(proof);
  if (header.typ !== 'dpop+jwt' || !header.jwk || !header.alg) return 'bad header';
  if ('d' in header.jwk) return 'private key in the header';
  const { payload } = await jwtVerify(proof, await importJWK(header.jwk, header.alg));
  if (payload.htm !== method || payload.htu !== url) return 'wrong htm or htu';
  if (typeof payload.jti !== 'string') return 'no jti';
  if (Math.abs((payload.iat ?? 0) - Date.now() / 1000) > 60) return 'stale iat';
  if (expected.token !== undefined) {
    const ath = createHash('sha256').update(expected.token).digest('base64url');
    if (payload.ath !== ath) return 'wrong ath';
  }
  if (expected.nonce !== undefined && payload.nonce !== expected.nonce) return 'use_dpop_nonce';
  return { jkt: await calculateJwkThumbprint(header.jwk), claims: payload };
}

/** What the token endpoint saw: the form and the headers that matter. */
export interface TokenCall {
  params: Record<string, string>;
  authorization?: string;
  dpop?: string;
}

/** A token the test authorization server issued, and the key it is bound to, if any. */
export interface IssuedToken {
  resource: string;
  jkt?: string;
}

/** How the test authorization server answers the extension grants. */
export interface ExtensionAuthServerOptions {
  /** Issue DPoP-bound tokens to requests with a proof; require this nonce first, if set. */
  dpopNonce?: string;
  /** Advertise DPoP support. Default true. */
  dpop?: boolean;
  authMethods?: string[];
  /** Decides a JWT-bearer grant: undefined grants it, a string is the OAuth error. */
  jwtBearer?: (assertion: string, call: TokenCall) => Promise<string | undefined>;
}

/** A running authorization server for the extension grants. */
export interface ExtensionAuthServer extends Listening {
  issuer: string;
  calls: TokenCall[];
  tokens: Map<string, IssuedToken>;
}

/**
 * An authorization server on 127.0.0.1 for DPoP and the JWT-bearer grant: metadata; an
 * authorization endpoint that redirects at once with a code; a token endpoint for the code,
 * refresh and JWT-bearer grants that binds tokens (refresh tokens included) to the proof's key.
 */
export async function startExtensionAuthServer(
  options: ExtensionAuthServerOptions = {},
): Promise<ExtensionAuthServer> {
  const calls: TokenCall[] = [];
  const tokens = new Map<string, IssuedToken>();
  const refreshTokens = new Map<string, IssuedToken>();
  let issuer = '';
  const issue = (grant: IssuedToken) => {
    const accessToken = `at-${randomUUID()}`;
    const refreshToken = `rt-${randomUUID()}`;
    tokens.set(accessToken, grant);
    refreshTokens.set(refreshToken, grant);
    const type = grant.jkt ? 'DPoP' : 'Bearer';
    return { access_token: accessToken, token_type: type, refresh_token: refreshToken };
  };
  const listening = await listen(async (req, res, body) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: options.authMethods ?? ['none'],
        ...(options.dpop === false ? {} : { dpop_signing_alg_values_supported: ['ES256'] }),
      });
    }
    if (url.pathname === '/authorize') {
      const back = new URL(url.searchParams.get('redirect_uri') ?? 'http://invalid');
      back.searchParams.set('code', `code-${url.searchParams.get('resource')}`);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    const params = Object.fromEntries(new URLSearchParams(body));
    const dpop = typeof req.headers.dpop === 'string' ? req.headers.dpop : undefined;
    const call: TokenCall = {
      params,
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
      ...(dpop ? { dpop } : {}),
    };
    calls.push(call);
    let jkt: string | undefined;
    if (dpop && options.dpop !== false) {
      const nonce = options.dpopNonce;
      const checked = await checkProof(dpop, 'POST', `${issuer}/token`, nonce ? { nonce } : {});
      if (checked === 'use_dpop_nonce') {
        return json(res, 400, { error: 'use_dpop_nonce' }, { 'dpop-nonce': nonce ?? '' });
      }
      if (typeof checked === 'string') return json(res, 400, { error: 'invalid_dpop_proof' });
      jkt = checked.jkt;
    }
    const resource = params.resource ?? '';
    const bound = jkt ? { resource, jkt } : { resource };
    switch (params.grant_type ?? '') {
      case 'authorization_code':
        return json(res, 200, issue(bound));
      case 'refresh_token': {
        const grant = refreshTokens.get(params.refresh_token ?? '');
        // RFC 9449 §5: a refresh token bound to a key is only good with a proof of that key.
        if (!grant || grant.jkt !== jkt) return json(res, 400, { error: 'invalid_grant' });
        return json(res, 200, issue(bound));
      }
      case 'urn:ietf:params:oauth:grant-type:jwt-bearer': {
        const error = await options.jwtBearer?.(params.assertion ?? '', call);
        if (error) return json(res, 400, { error });
        return json(res, 200, issue(bound));
      }
      default:
        return json(res, 400, { error: 'unsupported_grant_type' });
    }
  });
  issuer = listening.url;
  return Object.assign(listening, { issuer, calls, tokens });
}

/** A running resource server that takes DPoP-bound and bearer tokens. */
export interface DpopResourceServer extends Listening {
  mcpUrl: string;
  /** Each request's `Authorization` scheme and proof `jti`, in order. */
  seen: { scheme: string; jti?: string }[];
}

/**
 * A protected `/mcp` on 127.0.0.1: a bound token must come as `DPoP` with a proof for it (its key,
 * its hash, the current nonce when `nonce` is set); an unbound one as `Bearer`. Anything else is
 * 401 with a challenge naming the metadata.
 */
export async function startDpopResource(
  as: ExtensionAuthServer,
  nonce?: string,
): Promise<DpopResourceServer> {
  const seen: DpopResourceServer['seen'] = [];
  let base = '';
  const listening = await listen(async (req, res, body) => {
    const path = new URL(req.url ?? '/', base).pathname;
    if (path === '/.well-known/oauth-protected-resource/mcp') {
      return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [as.issuer] });
    }
    const [scheme = '', token = ''] = (req.headers.authorization ?? '').split(' ');
    const proof = typeof req.headers.dpop === 'string' ? req.headers.dpop : undefined;
    const grant = as.tokens.get(token);
    const checked = grant?.jkt
      ? await checkProof(proof, req.method ?? '', `${base}/mcp`, {
          token,
          ...(nonce ? { nonce } : {}),
        })
      : undefined;
    seen.push({
      scheme,
      ...(checked && typeof checked !== 'string' ? { jti: checked.claims.jti as string } : {}),
    });
    const metadata = `resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`;
    if (checked === 'use_dpop_nonce') {
      const challenge = `DPoP error="use_dpop_nonce", ${metadata}`;
      return json(res, 401, {}, { 'www-authenticate': challenge, 'dpop-nonce': nonce ?? '' });
    }
    const valid = grant?.jkt
      ? scheme === 'DPoP' && typeof checked === 'object' && checked.jkt === grant.jkt
      : grant !== undefined && scheme === 'Bearer';
    if (!valid) return json(res, 401, {}, { 'www-authenticate': `DPoP ${metadata}` });
    const message = JSON.parse(body || '{}') as { id?: number };
    json(res, 200, { jsonrpc: '2.0', id: message.id ?? null, result: {} });
  });
  base = listening.url;
  return Object.assign(listening, { mcpUrl: `${base}/mcp`, seen });
}
