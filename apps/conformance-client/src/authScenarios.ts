import {
  Client,
  clientCredentials,
  httpTransport,
  oauth,
  type HttpAuthorizer,
  type OAuthOptions,
} from '@rondo/client';
import { eraOf } from './connect.js';
import type { ScenarioHandler, ScenarioRun, ScenarioTable } from './scenario.js';

/** The client ID metadata document URL the suite expects a CIMD-capable client to present. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
/** Never visited: the suite's authorization server redirects at once and the URL is read from `Location`. */
const REDIRECT_URI = 'http://localhost:3000/callback';
/**
 * The suite runs every scenario at once: on a small, busy machine its servers answer slowly, so the
 * fixture waits longer than the client's defaults before calling a server silent.
 */
export const PATIENT = { timeoutMs: 90_000 };
const REQUEST_TIMEOUT_MS = 120_000;

/**
 * The headless redirect: ask the authorization URL, don't follow the redirect, return where it
 * points. Asked once more if the connection failed before an answer (a kept-alive socket the busy
 * suite server closed meanwhile).
 */
async function readRedirect(authorizationUrl: URL): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' }).catch(() =>
    fetch(authorizationUrl, { redirect: 'manual' }),
  );
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (!location) {
    throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
  }
  return location;
}

export function contextString(run: ScenarioRun, name: string): string {
  const value = run.context[name];
  if (typeof value !== 'string') throw new Error(`the scenario context has no ${name}`);
  return value;
}

/** Connects with `authorizer`, lists the tools and (unless told not to) calls `test-tool`. */
export async function session(
  run: ScenarioRun,
  authorizer: HttpAuthorizer,
  callTool = true,
): Promise<void> {
  const transport = httpTransport({ url: run.serverUrl, authorizer });
  const client = new Client({
    transport,
    era: eraOf(run),
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    clientInfo: { name: 'rondo-conformance-client', version: '1.0.0' },
  });
  try {
    await client.connect();
    await client.listTools();
    if (callTool) await client.callTool('test-tool', {});
  } finally {
    await client.close();
  }
}

/** The user-facing flow's options: the harness's redirect, this client's name and CIMD URL. */
export const USER_FLOW: OAuthOptions = {
  ...PATIENT,
  onRedirect: readRedirect,
  redirectUri: REDIRECT_URI,
  clientName: 'rondo-conformance-client',
  clientMetadataUrl: CLIENT_METADATA_URL,
};

/** The user-facing flow: discovery, CIMD or registration, the code flow with PKCE, step-up. */
const userFlow: ScenarioHandler = (run) => session(run, oauth(USER_FLOW));

const preRegistered: ScenarioHandler = (run) =>
  session(
    run,
    oauth({
      ...PATIENT,
      onRedirect: readRedirect,
      redirectUri: REDIRECT_URI,
      client: {
        clientId: contextString(run, 'client_id'),
        clientSecret: contextString(run, 'client_secret'),
        issuer: contextString(run, 'issuer'),
      },
    }),
  );

const clientCredentialsJwt: ScenarioHandler = (run) =>
  session(
    run,
    clientCredentials({
      ...PATIENT,
      clientId: contextString(run, 'client_id'),
      privateKey: {
        privateKey: contextString(run, 'private_key_pem'),
        algorithm:
          typeof run.context.signing_algorithm === 'string'
            ? run.context.signing_algorithm
            : 'ES256',
      },
    }),
    false,
  );

const clientCredentialsBasic: ScenarioHandler = (run) =>
  session(
    run,
    clientCredentials({
      ...PATIENT,
      clientId: contextString(run, 'client_id'),
      clientSecret: contextString(run, 'client_secret'),
    }),
    false,
  );

const USER_FLOW_SCENARIOS = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/authorization-server-migration',
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
];

/**
 * The `auth/*` scenarios (OAuth 2.1 client). The ones where the suite's servers misbehave (another
 * resource, a wrong issuer, a scope never granted) end with the client's typed OAuth error, which
 * is what they test.
 */
export const authScenarios: ScenarioTable = {
  ...Object.fromEntries(USER_FLOW_SCENARIOS.map((name) => [name, userFlow])),
  'auth/pre-registration': preRegistered,
  'auth/client-credentials-jwt': clientCredentialsJwt,
  'auth/client-credentials-basic': clientCredentialsBasic,
};
