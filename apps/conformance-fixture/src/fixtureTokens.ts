import type { OAuthResourceOptions } from '@rondo/server';

/** The resource the fixture's static tokens are issued for (they never leave the test that set them). */
const FIXTURE_RESOURCE = 'urn:rondo:conformance-fixture';

/** A `RONDO_FIXTURE_TOKENS` value that is not `token:principal` entries. */
export class FixtureTokensError extends Error {
  override readonly name = 'FixtureTokensError';
}

/**
 * Reads `RONDO_FIXTURE_TOKENS`: comma-separated `token:principal` entries (a principal may hold
 * several tokens, a token names one principal). Throws {@link FixtureTokensError} on a bad entry.
 */
export function parseFixtureTokens(text: string): ReadonlyMap<string, string> {
  const tokens = new Map<string, string>();
  for (const entry of text.split(',')) {
    const colon = entry.indexOf(':');
    const token = entry.slice(0, colon).trim();
    const principal = entry.slice(colon + 1).trim();
    if (colon < 1 || token === '' || principal === '' || tokens.has(token))
      throw new FixtureTokensError(
        `RONDO_FIXTURE_TOKENS: "${entry}" is not a token:principal entry (tokens unique)`,
      );
    tokens.set(token, principal);
  }
  return tokens;
}

/**
 * Bearer authentication by a fixed token table, for outside checkers that need principals (webhook
 * subscriptions are owned by one): each request must carry one of the tokens (401 otherwise), and
 * its principal is the token's. No authorization server exists; it is not for production.
 */
export function fixtureTokenAuth(tokens: ReadonlyMap<string, string>): OAuthResourceOptions {
  return {
    resource: FIXTURE_RESOURCE,
    authorizationServers: [],
    resourceName: 'Rondo conformance fixture (static test tokens)',
    verifyToken: (token) => {
      const principal = tokens.get(token);
      return principal === undefined
        ? undefined
        : { subject: principal, scopes: [], audience: FIXTURE_RESOURCE };
    },
  };
}
