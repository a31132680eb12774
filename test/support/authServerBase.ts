import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  SignJWT,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';

// What the tests' authorization servers (jwtAuthServer.ts, dpopAuthServer.ts) share: a listener on
// 127.0.0.1 publishing its signing key as a JWKS, the bodies and answers of their routes, and the
// RS256 access tokens they issue.

/** A request to a test authorization server, its body read (at most 64 KiB). */
export interface AuthRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  readonly body: string;
  /** The body as a form (`application/x-www-form-urlencoded`). */
  readonly form: Readonly<Record<string, string | undefined>>;
}

/** A running authorization server's listener, with the key its tokens are signed with. */
export interface AuthListener {
  readonly issuer: string;
  readonly jwksUrl: string;
  /** Signs an access token (`at+jwt`) of `issuer` with `claims`, for `subject` and `audience`. */
  sign(claims: JWTPayload, subject: string, audience: string): Promise<string>;
  /** The claims of a token this listener signed and that is current; `undefined` otherwise. */
  verify(token: string): Promise<JWTPayload | undefined>;
  close(): Promise<void>;
}

/**
 * Starts an authorization server on a free port of 127.0.0.1 with a fresh RS256 key: `/jwks`
 * publishes the key, every other request goes to `route` (its `issuer` is the server's origin); a
 * route that throws is answered 500 `server_error`.
 */
export async function startAuthListener(
  route: (request: AuthRequest, issuer: string) => Promise<void>,
): Promise<AuthListener> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  let issuer = '';
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === '/jwks') return json(res, 200, { keys: [jwk] });
    const body = await readBody(req);
    const form = Object.fromEntries(new URLSearchParams(body));
    await route({ req, res, url, body, form }, issuer);
  };
  const server = createServer((req, res) => {
    void serve(req, res).catch(() => json(res, 500, { error: 'server_error' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    sign: (claims, subject, audience) =>
      signAccessToken(privateKey, issuer, claims, subject, audience),
    verify: async (token) => {
      try {
        return (await jwtVerify(token, publicKey, { issuer })).payload;
      } catch {
        return undefined;
      }
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function signAccessToken(
  key: CryptoKey,
  issuer: string,
  claims: JWTPayload,
  subject: string,
  audience: string,
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: 'k1', typ: 'at+jwt' })
    .setIssuer(issuer)
    .setSubject(subject)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(key);
}

/** The `Authorization` header of a confidential client (`client_secret_basic`). */
export function basicAuthorization(client: { clientId: string; clientSecret: string }): string {
  return `Basic ${btoa(`${client.clientId}:${client.clientSecret}`)}`;
}

/** Answers `value` as JSON, not to be cached; nothing when an answer was sent already. */
export function json(res: ServerResponse, status: number, value: unknown): void {
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
