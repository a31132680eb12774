import { resolve } from 'node:path';
import type { Provider } from '@rondo/core';
import { openApiProvider, type SchemeCredentials } from '@rondo/openapi';
import { namespaced, type EntryClaims, type ProxyOptions } from '@rondo/proxy';
import { z } from 'zod';
import { ConfigError } from './configError.js';

/**
 * A gateway entry serving an OpenAPI document as tools:
 * `{ "openapi": "<file or URL>", "baseUrl": "<URL>" }`, with credentials for its security schemes
 * (secrets given as is or, better, by the environment variable holding them), operation filters
 * by tag and path, and the call limits.
 */

const secret = (value: string) => z.string().min(1).optional().describe(value);
const credentials = z.strictObject({
  apiKey: secret('an API key'),
  apiKeyEnv: secret('the variable holding the API key'),
  token: secret('a bearer token'),
  tokenEnv: secret('the variable holding the bearer token'),
  username: secret('a basic login'),
  password: secret('its password'),
  passwordEnv: secret('the variable holding the password'),
  clientId: secret('an OAuth client id'),
  clientSecret: secret('its secret'),
  clientSecretEnv: secret('the variable holding the secret'),
  scope: secret('the scope asked for'),
});
const patterns = z.array(z.string().min(1)).optional();

/** The members an `openapi` entry has besides the common ones (namespace, include, ...). */
export const openApiMembers = {
  openapi: z.string().min(1),
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
  auth: z.record(z.string().min(1), credentials).optional(),
  includePaths: patterns,
  excludePaths: patterns,
  maxResponseBytes: z
    .number()
    .int()
    .min(1)
    .max(1024 * 1024 * 1024)
    .optional(),
  headers: z.record(z.string(), z.string()).optional(),
};

/** An `openapi` entry as read: the document's path resolved, credentials with their secrets read. */
export interface OpenApiEntryFields {
  readonly openapi: string;
  readonly baseUrl?: string;
  readonly credentials: Readonly<Record<string, SchemeCredentials>>;
  readonly includePaths?: string[];
  readonly excludePaths?: string[];
  readonly maxResponseBytes?: number;
  readonly headers?: Record<string, string>;
}

/**
 * The fields of an `openapi` entry: a relative document path resolved against `baseDir`, each
 * scheme's credentials with their secrets read from the environment when named so. Throws a
 * {@link ConfigError} naming the member at fault.
 */
export function readOpenApiFields(
  data: z.infer<z.ZodObject<typeof openApiMembers>>,
  where: string,
  baseDir: string,
): OpenApiEntryFields {
  const creds: Record<string, SchemeCredentials> = {};
  for (const [scheme, given] of Object.entries(data.auth ?? {}))
    creds[scheme] = schemeCredentials(given, `${where}: auth.${scheme}`);
  const { auth: _auth, ...rest } = data;
  return {
    ...rest,
    openapi: /^https?:\/\//i.test(data.openapi) ? data.openapi : resolve(baseDir, data.openapi),
    credentials: creds,
  };
}

function schemeCredentials(given: z.infer<typeof credentials>, where: string): SchemeCredentials {
  const read = (value: string | undefined, variable: string | undefined, member: string) => {
    if (variable === undefined) return value;
    const found = process.env[variable];
    if (!found) throw new ConfigError(`${where}.${member}Env: ${variable} is not set`);
    return found;
  };
  const apiKey = read(given.apiKey, given.apiKeyEnv, 'apiKey');
  if (apiKey) return { apiKey };
  const token = read(given.token, given.tokenEnv, 'token');
  if (token) return { token };
  const password = read(given.password, given.passwordEnv, 'password');
  if (given.username && password) return { username: given.username, password };
  const clientSecret = read(given.clientSecret, given.clientSecretEnv, 'clientSecret');
  if (given.clientId && clientSecret)
    return {
      clientId: given.clientId,
      clientSecret,
      ...(given.scope ? { scope: given.scope } : {}),
    };
  throw new ConfigError(
    `${where}: give apiKey, token, username and password, or clientId and clientSecret (or their *Env variables)`,
  );
}

/** The provider of an `openapi` entry, named by the entry's rules like any other. */
export async function openApiEntryProvider(
  entry: OpenApiEntryFields & {
    readonly includeTags?: string[];
    readonly excludeTags?: string[];
    readonly timeoutMs?: number;
  },
  naming: ProxyOptions,
  claims?: EntryClaims,
): Promise<Provider> {
  const provider = await openApiProvider({
    source: entry.openapi,
    ...(entry.baseUrl ? { baseUrl: entry.baseUrl } : {}),
    auth: entry.credentials,
    ...(entry.includeTags ? { includeTags: entry.includeTags } : {}),
    ...(entry.excludeTags ? { excludeTags: entry.excludeTags } : {}),
    ...(entry.includePaths ? { includePaths: entry.includePaths } : {}),
    ...(entry.excludePaths ? { excludePaths: entry.excludePaths } : {}),
    ...(entry.timeoutMs ? { timeoutMs: entry.timeoutMs } : {}),
    ...(entry.maxResponseBytes ? { maxResponseBytes: entry.maxResponseBytes } : {}),
    ...(entry.headers ? { headers: entry.headers } : {}),
  });
  // Tags chose the operations already; the entry's names (namespace, include, rename) apply here.
  const { includeTags: _in, excludeTags: _out, ...rules } = naming;
  return namespaced(provider, rules, claims);
}
