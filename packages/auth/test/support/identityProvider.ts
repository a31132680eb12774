import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendTenMegabytes } from './hugeBody.js';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';

/** How the key set endpoint answers, switchable while a test runs. */
export type KeySetMode = 'serve' | 'hang' | 'huge';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

/** A signing key of the provider: its `kid`, its private key and its public JWK. */
export interface SigningKey {
  kid: string;
  privateKey: PrivateKey;
  publicJwk: JWK;
}

/** Makes an RS256 signing key with the given `kid`. */
export async function signingKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return {
    kid,
    privateKey,
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' },
  };
}

/**
 * A local identity provider on 127.0.0.1: a JWKS endpoint (`/jwks`) whose keys, `Cache-Control`
 * and behaviour (serve, hang, answer 10 MB) a test switches, and a count of its fetches.
 */
export class LocalIdentityProvider {
  readonly issuer = 'https://idp.example/realms/rondo';
  keys: SigningKey[] = [];
  mode: KeySetMode = 'serve';
  cacheControl = 'public, max-age=3600';
  fetches = 0;
  #hanging: ServerResponse[] = [];
  readonly #server = createServer((req, res) => this.#answer(req, res));

  /** Starts listening on a free port of 127.0.0.1. */
  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  /** The key set URL. */
  get jwksUrl(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/jwks`;
  }

  /** Signs a token with `key` (default: the first key), claims merged over sane defaults. */
  async sign(
    claims: JWTPayload,
    options: { key?: SigningKey; audience: string; expiresIn?: string | number },
  ): Promise<string> {
    const key = options.key ?? this.keys[0]!;
    const jwt = new SignJWT({ scope: 'mcp:tools', client_id: 'desktop-app', ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' })
      .setIssuer(this.issuer)
      .setAudience(options.audience)
      .setSubject('user-42')
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '5m');
    return jwt.sign(key.privateKey);
  }

  /** Stops the server, ending any request it holds. */
  async close(): Promise<void> {
    for (const res of this.#hanging) res.destroy();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #answer(req: IncomingMessage, res: ServerResponse): void {
    if (req.url !== '/jwks') {
      res.writeHead(404).end();
      return;
    }
    this.fetches += 1;
    if (this.mode === 'hang') {
      this.#hanging.push(res);
      return;
    }
    if (this.mode === 'huge') {
      sendTenMegabytes(res, false);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': this.cacheControl });
    res.end(JSON.stringify({ keys: this.keys.map((key) => key.publicJwk) }));
  }
}
