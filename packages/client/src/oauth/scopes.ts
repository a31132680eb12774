/** What the scope of an authorization request is chosen from. */
export interface ScopeSources {
  /** The `scope` of the resource's challenge (`WWW-Authenticate`). */
  challenged?: string;
  /** The resource metadata's `scopes_supported`. */
  resourceScopes?: readonly string[];
  /** The authorization server's `scopes_supported`. */
  serverScopes?: readonly string[];
  /** The scopes asked for last time: a step-up asks for them again plus the new ones. */
  previous?: string;
  /** Ask for `offline_access` (a refresh token) where the authorization server lists it. */
  offlineAccess: boolean;
}

/** Most scopes one request asks for: a resource cannot make a request grow without end. */
export const MAX_SCOPES = 64;
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]{1,128}$/;

/**
 * The MCP scope selection strategy: the challenge's scope, else every scope the resource metadata
 * lists, else none (the parameter is left out); joined with what was asked before, and with
 * `offline_access` when wanted and supported. Undefined means: send no `scope`.
 */
export function selectScope(sources: ScopeSources): string | undefined {
  const base =
    sources.challenged !== undefined
      ? split(sources.challenged)
      : [...(sources.resourceScopes ?? [])];
  const scopes = new Set(
    [...split(sources.previous), ...base].filter((scope) => SCOPE_TOKEN.test(scope)),
  );
  if (
    scopes.size > 0 &&
    sources.offlineAccess &&
    sources.serverScopes?.includes('offline_access')
  ) {
    scopes.add('offline_access');
  }
  const chosen = [...scopes].slice(0, MAX_SCOPES);
  return chosen.length > 0 ? chosen.join(' ') : undefined;
}

/** True when every scope in `wanted` is among `held`. */
export function coversScopes(held: string | undefined, wanted: string | undefined): boolean {
  const have = new Set(split(held));
  return split(wanted).every((scope) => have.has(scope));
}

function split(scope: string | undefined): string[] {
  return scope ? scope.split(' ').filter((entry) => entry !== '') : [];
}
