/** Tokens the client holds for one protected resource. */
export interface OAuthTokens {
  accessToken: string;
  /** The token type the server named; only `Bearer` tokens are sent. */
  tokenType: string;
  refreshToken?: string;
  /** When the access token expires, in milliseconds since the epoch. */
  expiresAt?: number;
  /** The scopes asked for when the token was obtained (space-separated), when any were. */
  requestedScope?: string;
  /** The scopes granted, as the token endpoint reported them. */
  grantedScope?: string;
  /** The issuer that minted them: a token is only refreshed where it came from. */
  issuer: string;
}

/** A client identity at one authorization server. */
export interface OAuthClientInformation {
  clientId: string;
  clientSecret?: string;
  /** How the client authenticates at the token endpoint; chosen from the server's list when absent. */
  tokenEndpointAuthMethod?: string;
}

/**
 * Where the OAuth client keeps tokens (per resource) and client identities (per issuer: an
 * identity from one authorization server is never shown to another). Implement it to keep them
 * across runs, in a keychain or a database; the default keeps them in memory.
 */
export interface TokenStore {
  getTokens(resource: string): Promise<OAuthTokens | undefined>;
  setTokens(resource: string, tokens: OAuthTokens): Promise<void>;
  deleteTokens(resource: string): Promise<void>;
  getClient(issuer: string): Promise<OAuthClientInformation | undefined>;
  setClient(issuer: string, client: OAuthClientInformation): Promise<void>;
}

/** Default number of resources and of issuers the memory store keeps (oldest dropped first). */
export const DEFAULT_MEMORY_STORE_ENTRIES = 100;

/** A {@link TokenStore} in memory, bounded: past `maxEntries` per map the oldest entry goes. */
export function memoryTokenStore(maxEntries = DEFAULT_MEMORY_STORE_ENTRIES): TokenStore {
  const tokens = new Map<string, OAuthTokens>();
  const clients = new Map<string, OAuthClientInformation>();
  const put = <T>(map: Map<string, T>, key: string, value: T): void => {
    map.delete(key);
    map.set(key, value);
    for (const oldest of map.keys()) {
      if (map.size <= maxEntries) break;
      map.delete(oldest);
    }
  };
  return {
    getTokens: (resource) => Promise.resolve(tokens.get(resource)),
    setTokens: (resource, value) => Promise.resolve(put(tokens, resource, value)),
    deleteTokens: (resource) => Promise.resolve(void tokens.delete(resource)),
    getClient: (issuer) => Promise.resolve(clients.get(issuer)),
    setClient: (issuer, value) => Promise.resolve(put(clients, issuer, value)),
  };
}
