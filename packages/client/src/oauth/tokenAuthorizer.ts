import type { HttpAuthorizer } from '../http/authorizer.js';
import { parseSchemeChallenge, type BearerChallenge } from './challenge.js';
import { discover, type AuthContext } from './discovery.js';
import type { DpopProver } from './dpop.js';
import type { OAuthHttp } from './http.js';
import { canonicalResource } from './protectedResource.js';
import { coversScopes, selectScope } from './scopes.js';
import type { OAuthTokens, TokenStore } from './tokenStore.js';

/** How a grant gets tokens: the authorization code flow for users, client credentials for machines. */
export interface TokenSource {
  /** New tokens for the context, asking for `scope` (undefined: no scope parameter). */
  obtain(context: AuthContext, scope: string | undefined): Promise<OAuthTokens>;
  /** New tokens for ones that expired or were refused; undefined when they cannot be renewed. */
  renew(context: AuthContext, tokens: OAuthTokens): Promise<OAuthTokens | undefined>;
  /** Ask for `offline_access` where the authorization server lists it. */
  offlineAccess: boolean;
}

/** The bounds of one authorizer. */
export interface AuthorizerSettings {
  http: OAuthHttp;
  store: TokenStore;
  source: TokenSource;
  /** Step-ups for scopes already asked for and still refused, before a 403 is given up. */
  maxStepUps: number;
  /** Authorizations in a row whose new token is refused at once with 401, before a 401 is given up. */
  maxReauthorizations: number;
  /** The one authorization server this client may ask (see `OAuthCommonOptions.issuer`). */
  issuer?: string;
  /** Binds tokens to its key (RFC 9449): they are sent with the `DPoP` scheme and a proof. */
  dpop?: DpopProver | undefined;
}

/** A token is renewed this long before it expires, so it does not expire in flight. */
const EXPIRY_MARGIN_MS = 30_000;
/** Servers whose discovery results are kept (oldest dropped first). */
const MAX_CONTEXTS = 32;

/**
 * The {@link HttpAuthorizer} behind `oauth()` and `clientCredentials()`: hands out the stored token
 * (renewed when it expired), and on a challenge discovers where tokens come from and gets new ones:
 * on 401 by refreshing or a new grant, on 403 `insufficient_scope` by a step-up asking for the
 * union of the old and the challenged scopes. Concurrent challenges share one flow.
 */
export class TokenAuthorizer implements HttpAuthorizer {
  readonly #settings: AuthorizerSettings;
  readonly #contexts = new Map<string, AuthContext>();
  readonly #flows = new Map<string, Promise<boolean>>();
  /** Per server: how often the current token was handed out, and 401s since one was reused. */
  readonly #uses = new Map<string, number>();
  readonly #unauthorized = new Map<string, number>();
  /** Per server and scope: step-ups for scopes the token already asked for. */
  readonly #futileStepUps = new Map<string, number>();

  constructor(settings: AuthorizerSettings) {
    this.#settings = settings;
  }

  /** The `Authorization` header for `url`: the stored token, renewed when it expired. */
  async authorization(url: URL): Promise<string | undefined> {
    const key = canonicalResource(url);
    await this.#flows.get(key)?.catch(() => undefined);
    let tokens = await this.#settings.store.getTokens(key);
    if (tokens?.expiresAt !== undefined && tokens.expiresAt - EXPIRY_MARGIN_MS <= Date.now()) {
      tokens = await this.#renewExpired(key, url, tokens);
    }
    const scheme = this.#schemeOf(tokens);
    if (!tokens || !scheme) return undefined;
    const uses = (this.#uses.get(key) ?? 0) + 1;
    this.#uses.set(key, uses);
    // A token used a second time was not refused at once: the run of refusals is over.
    if (uses > 1) this.#unauthorized.delete(key);
    return `${scheme} ${tokens.accessToken}`;
  }

  /** The DPoP proof for a request carrying a DPoP-bound token; none for a bearer token. */
  async proofHeaders(
    url: URL,
    method: string,
    authorization: string,
  ): Promise<Record<string, string>> {
    const dpop = this.#settings.dpop;
    if (!dpop || !authorization.startsWith('DPoP ')) return {};
    return { DPoP: await dpop.proof(method, url, authorization.slice('DPoP '.length)) };
  }

  /** How a token is presented: `Bearer`, `DPoP` when this authorizer holds the key, else not at all. */
  #schemeOf(tokens: OAuthTokens | undefined): string | undefined {
    const type = tokens?.tokenType.toLowerCase();
    if (type === 'bearer') return 'Bearer';
    return type === 'dpop' && this.#settings.dpop ? 'DPoP' : undefined;
  }

  /** Answers a 401 or 403: true when a new token was obtained and the request should be sent again. */
  challenged(response: Response, url: URL): Promise<boolean> {
    const key = canonicalResource(url);
    const running = this.#flows.get(key);
    if (running) return running;
    const flow = this.#answer(response, url, key).finally(() => this.#flows.delete(key));
    this.#flows.set(key, flow);
    return flow;
  }

  async #answer(response: Response, url: URL, key: string): Promise<boolean> {
    const challenge = this.#challengeOf(response);
    // RFC 9449 §9: the resource wants a proof carrying its nonce; the token itself is fine.
    if (challenge.error === 'use_dpop_nonce' && response.status === 401) {
      return this.#settings.dpop?.rememberNonce(url, response.headers) ?? false;
    }
    const tokens = await this.#settings.store.getTokens(key);
    if (response.status === 403) return this.#stepUp(key, url, challenge, tokens);
    if (response.status !== 401) return false;
    const refusals = (this.#unauthorized.get(key) ?? 0) + 1;
    this.#unauthorized.set(key, refusals);
    if (refusals > this.#settings.maxReauthorizations + 1) return false;
    // Discovered afresh on every 401: the resource may have moved to another authorization server.
    const context = await discover(
      this.#settings.http,
      url,
      challenge.resourceMetadata,
      this.#settings.issuer,
    );
    this.#remember(key, context);
    const sameIssuer = tokens?.issuer === context.server.issuer;
    if (tokens && sameIssuer && refusals === 1) {
      const renewed = await this.#settings.source.renew(context, tokens).catch(() => undefined);
      if (renewed) {
        await this.#save(key, renewed);
        return true;
      }
    }
    const previous = sameIssuer ? tokens?.requestedScope : undefined;
    await this.#grant(key, context, challenge.scope, previous);
    return true;
  }

  /** The challenge answered: the DPoP one first when this authorizer proves possession. */
  #challengeOf(response: Response): BearerChallenge {
    const header = response.headers.get('www-authenticate');
    const bearer = parseSchemeChallenge(header, 'bearer');
    const dpop = parseSchemeChallenge(header, 'dpop');
    return (this.#settings.dpop ? (dpop ?? bearer) : (bearer ?? dpop)) ?? {};
  }

  async #stepUp(
    key: string,
    url: URL,
    challenge: BearerChallenge,
    tokens: OAuthTokens | undefined,
  ): Promise<boolean> {
    if (challenge.error !== 'insufficient_scope') return false;
    const held = [tokens?.requestedScope, tokens?.grantedScope].join(' ');
    if (coversScopes(held, challenge.scope)) {
      const scopeKey = `${key} ${challenge.scope ?? ''}`;
      const futile = (this.#futileStepUps.get(scopeKey) ?? 0) + 1;
      this.#futileStepUps.set(scopeKey, futile);
      if (futile > this.#settings.maxStepUps) return false;
    }
    let context = this.#contexts.get(key);
    if (!context || challenge.resourceMetadata) {
      context = await discover(
        this.#settings.http,
        url,
        challenge.resourceMetadata,
        this.#settings.issuer,
      );
      this.#remember(key, context);
    }
    const previous = tokens?.issuer === context.server.issuer ? tokens.requestedScope : undefined;
    await this.#grant(key, context, challenge.scope, previous);
    return true;
  }

  async #grant(
    key: string,
    context: AuthContext,
    challenged?: string,
    previous?: string,
  ): Promise<void> {
    const scope = selectScope({
      ...(challenged !== undefined ? { challenged } : {}),
      ...(context.resourceScopes ? { resourceScopes: context.resourceScopes } : {}),
      ...(context.server.scopesSupported ? { serverScopes: context.server.scopesSupported } : {}),
      ...(previous !== undefined ? { previous } : {}),
      offlineAccess: this.#settings.source.offlineAccess,
    });
    await this.#save(key, await this.#settings.source.obtain(context, scope));
  }

  async #renewExpired(
    key: string,
    url: URL,
    tokens: OAuthTokens,
  ): Promise<OAuthTokens | undefined> {
    try {
      const context =
        this.#contexts.get(key) ??
        (await discover(this.#settings.http, url, undefined, this.#settings.issuer));
      this.#remember(key, context);
      const renewed =
        context.server.issuer === tokens.issuer
          ? await this.#settings.source.renew(context, tokens)
          : undefined;
      if (renewed) {
        await this.#save(key, renewed);
        return renewed;
      }
    } catch {
      // Renewal failed: the request goes without a token and its 401 starts a new flow.
    }
    await this.#settings.store.deleteTokens(key);
    return undefined;
  }

  async #save(key: string, tokens: OAuthTokens): Promise<void> {
    await this.#settings.store.setTokens(key, tokens);
    this.#uses.set(key, 0);
  }

  #remember(key: string, context: AuthContext): void {
    this.#contexts.delete(key);
    this.#contexts.set(key, context);
    for (const oldest of this.#contexts.keys()) {
      if (this.#contexts.size <= MAX_CONTEXTS) break;
      this.#contexts.delete(oldest);
      this.#uses.delete(oldest);
      this.#unauthorized.delete(oldest);
    }
    if (this.#futileStepUps.size > MAX_CONTEXTS * 4) this.#futileStepUps.clear();
  }
}
