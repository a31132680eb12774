import type { AuthorizationServer } from './authorizationServer.js';

/** Everything discovery learned about where a resource's tokens come from. */
export interface AuthContext {
  /** The `resource` parameter: the metadata's identifier as published, else the canonical server URL. */
  resource: string;
  /** The resource metadata's `scopes_supported`, when it lists them. */
  resourceScopes?: string[];
  server: AuthorizationServer;
}
