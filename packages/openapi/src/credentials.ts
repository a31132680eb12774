import { OpenApiDocumentError } from './errors.js';

/** What configuration gives for one security scheme of the document, by the scheme's kind. */
export type SchemeCredentials =
  | { readonly apiKey: string }
  | { readonly token: string }
  | { readonly username: string; readonly password: string }
  | { readonly clientId: string; readonly clientSecret: string; readonly scope?: string };

/** What a request carries for its security: headers and query parameters to add. */
export interface AppliedCredentials {
  readonly headers: Record<string, string>;
  readonly query: Record<string, string>;
}

interface Scheme {
  readonly type: string;
  readonly scheme?: string;
  readonly name?: string;
  readonly in?: string;
  readonly flows?: { clientCredentials?: { tokenUrl?: string } };
}

/**
 * The document's security schemes fed with configured credentials: an API key (header, query or
 * cookie), an HTTP bearer token or basic login, and OAuth client credentials (a token fetched from
 * the scheme's `tokenUrl` and kept until shortly before it expires). Secrets go only where their
 * scheme says.
 */
export class Credentials {
  private readonly tokens = new Map<string, { value: string; until: number }>();

  constructor(
    private readonly schemes: Readonly<Record<string, Scheme>>,
    private readonly given: Readonly<Record<string, SchemeCredentials>>,
    private readonly fetcher: typeof fetch,
    private readonly baseUrl: string,
  ) {
    for (const name of Object.keys(given))
      if (schemes[name] === undefined)
        throw new OpenApiDocumentError(
          `auth.${name}: the document has no security scheme of that name`,
        );
  }

  /**
   * The credentials for the first requirement whose schemes all have credentials; none when the
   * operation needs no security or none of its alternatives is configured (the API then answers).
   */
  async apply(
    requirements: readonly Readonly<Record<string, readonly string[]>>[],
    signal: AbortSignal,
  ): Promise<AppliedCredentials> {
    const applied = { headers: {} as Record<string, string>, query: {} as Record<string, string> };
    const usable = requirements.find((requirement) =>
      Object.keys(requirement).every((name) => this.given[name] !== undefined),
    );
    if (usable === undefined) return applied;
    for (const [name, scopes] of Object.entries(usable))
      await this.add(name, scopes, applied, signal);
    return applied;
  }

  private async add(
    name: string,
    scopes: readonly string[],
    applied: AppliedCredentials,
    signal: AbortSignal,
  ): Promise<void> {
    const scheme = this.schemes[name]!;
    const given = this.given[name]!;
    if (scheme.type === 'apiKey' && 'apiKey' in given) {
      const key = scheme.name ?? name;
      if (scheme.in === 'query') applied.query[key] = given.apiKey;
      else if (scheme.in === 'cookie')
        applied.headers.cookie = `${key}=${encodeURIComponent(given.apiKey)}`;
      else applied.headers[key.toLowerCase()] = given.apiKey;
    } else if (scheme.type === 'http' && 'token' in given) {
      applied.headers.authorization = `Bearer ${given.token}`;
    } else if (scheme.type === 'http' && 'username' in given) {
      applied.headers.authorization = `Basic ${btoa(`${given.username}:${given.password}`)}`;
    } else if ((scheme.type === 'oauth2' || scheme.type === 'openIdConnect') && 'token' in given) {
      applied.headers.authorization = `Bearer ${given.token}`;
    } else if (scheme.type === 'oauth2' && 'clientId' in given) {
      applied.headers.authorization = `Bearer ${await this.clientToken(name, scheme, given, scopes, signal)}`;
    } else {
      throw new OpenApiDocumentError(
        `auth.${name}: credentials of the wrong kind for a ${scheme.type} scheme`,
      );
    }
  }

  /** A client credentials token for the scheme, fetched once and kept until a minute before expiry. */
  private async clientToken(
    name: string,
    scheme: Scheme,
    given: { clientId: string; clientSecret: string; scope?: string },
    scopes: readonly string[],
    signal: AbortSignal,
  ): Promise<string> {
    const kept = this.tokens.get(name);
    if (kept && kept.until > Date.now()) return kept.value;
    const tokenUrl = scheme.flows?.clientCredentials?.tokenUrl;
    if (!tokenUrl)
      throw new OpenApiDocumentError(`auth.${name}: the scheme has no clientCredentials flow`);
    const scope = given.scope ?? scopes.join(' ');
    const response = await this.fetcher(new URL(tokenUrl, this.baseUrl), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${btoa(`${encodeURIComponent(given.clientId)}:${encodeURIComponent(given.clientSecret)}`)}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) }),
      signal,
    });
    const answer = (await response.json().catch(() => ({}))) as {
      access_token?: unknown;
      expires_in?: unknown;
    };
    if (!response.ok || typeof answer.access_token !== 'string')
      throw new Error(
        `the token endpoint of "${name}" answered HTTP ${response.status} without an access token`,
      );
    const lifetime = typeof answer.expires_in === 'number' ? answer.expires_in : 3600;
    this.tokens.set(name, {
      value: answer.access_token,
      until: Date.now() + Math.max(0, lifetime - 60) * 1000,
    });
    return answer.access_token;
  }
}
