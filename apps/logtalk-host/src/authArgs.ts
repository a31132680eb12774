import { readAuthFlags, type AuthFlagSettings } from '@rondo/auth';
import { ConfigurationError } from '@rondo/core';

/**
 * The `--auth-*` flags of `rondo-logtalk` (the shared ones of `@rondo/auth`, each also a
 * `RONDO_AUTH_*` variable), checked for the transport: stdio carries no token. Throws `usage`'s
 * error on a mistake.
 */
export function readHostAuth(
  values: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>>,
  transport: string,
  usage: (message: string) => Error,
): AuthFlagSettings | undefined {
  let settings: AuthFlagSettings | undefined;
  try {
    settings = readAuthFlags(values, env);
  } catch (failure) {
    if (failure instanceof ConfigurationError) throw usage(failure.message);
    throw failure;
  }
  if (settings !== undefined && transport === 'stdio')
    throw usage('--auth-* needs --transport http or ws: stdio carries no bearer token');
  return settings;
}
