import { json, listen, type Listening } from './listen.js';

/** How the test resource server protects `/mcp`. */
export interface ResourceServerOptions {
  /** Authorization servers named in the metadata (read per request: they may change). */
  authorizationServers: () => string[];
  /** What an access token was issued for, or undefined for an unknown token. */
  verify: (token: string) => { scope: string; resource: string } | undefined;
  /** The scopes a request needs, by JSON-RPC method. Default: none. */
  requiredScopes?: (method: string) => string[];
  scopesSupported?: string[];
  /** Metadata at the path-aware URL (default), the root one, or nowhere. */
  metadataAt?: 'path' | 'root' | 'none';
  /** Name the metadata in the challenge. Default true. */
  challengeNamesMetadata?: boolean;
  /** Put the required scopes in the 401 challenge. */
  challengeScope?: boolean;
  /** The `resource` the metadata publishes; default the real one. */
  publishedResource?: string;
}

/** A running test resource server: its MCP URL and what reached it with a valid token. */
export interface TestResourceServer extends Listening {
  mcpUrl: string;
  /** JSON-RPC methods served with a valid token. */
  served: string[];
  /** Paths of metadata requests. */
  metadataRequests: string[];
}

/**
 * A protected MCP endpoint on 127.0.0.1 (`/mcp`): 401 with a Bearer challenge without a valid token
 * for this resource, 403 `insufficient_scope` without the method's scopes, else a JSON-RPC result.
 */
export async function startResourceServer(
  options: ResourceServerOptions,
): Promise<TestResourceServer> {
  const served: string[] = [];
  const metadataRequests: string[] = [];
  let base = '';
  const at = options.metadataAt ?? 'path';
  const metadataPath =
    at === 'root'
      ? '/.well-known/oauth-protected-resource'
      : '/.well-known/oauth-protected-resource/mcp';
  const listening = await listen((req, res, body) => {
    const path = new URL(req.url ?? '/', base).pathname;
    if (path.startsWith('/.well-known/')) {
      metadataRequests.push(path);
      if (at === 'none' || path !== metadataPath) return json(res, 404, { error: 'not_found' });
      return json(res, 200, {
        resource: options.publishedResource ?? `${base}/mcp`,
        authorization_servers: options.authorizationServers(),
        ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
      });
    }
    const message = JSON.parse(body || '{}') as { id?: number; method?: string };
    const method = message.method ?? '';
    const required = options.requiredScopes?.(method) ?? [];
    const metadataParam =
      options.challengeNamesMetadata === false || at === 'none'
        ? []
        : [`resource_metadata="${base}${metadataPath}"`];
    const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const grant = token ? options.verify(token) : undefined;
    if (!grant || grant.resource !== (options.publishedResource ?? `${base}/mcp`)) {
      const scope =
        options.challengeScope && required.length > 0 ? [`scope="${required.join(' ')}"`] : [];
      const header = `Bearer ${[...scope, ...metadataParam].join(', ')}`.trim();
      return json(res, 401, { error: 'invalid_token' }, { 'www-authenticate': header });
    }
    const granted = grant.scope.split(' ');
    if (!required.every((scope) => granted.includes(scope))) {
      const params = [
        `error="insufficient_scope"`,
        `scope="${required.join(' ')}"`,
        ...metadataParam,
      ];
      const header = `Bearer ${params.join(', ')}`;
      return json(res, 403, { error: 'insufficient_scope' }, { 'www-authenticate': header });
    }
    served.push(method);
    json(res, 200, { jsonrpc: '2.0', id: message.id ?? null, result: { method } });
  });
  base = listening.url;
  return Object.assign(listening, { mcpUrl: `${base}/mcp`, served, metadataRequests });
}

/**
 * Sends one JSON-RPC request the way the Streamable HTTP transport does with an authorizer: the
 * `Authorization` header it gives (and its proof headers), and on 401 or 403 again while it says a
 * new token was obtained.
 */
export async function callWith(
  authorizer: {
    authorization(url: URL): Promise<string | undefined>;
    proofHeaders?(url: URL, method: string, authorization: string): Promise<Record<string, string>>;
    challenged(response: Response, url: URL): Promise<boolean>;
  },
  url: string,
  method: string,
  maxSends = 10,
): Promise<Response> {
  const target = new URL(url);
  for (let sends = 1; ; sends += 1) {
    const authorization = await authorizer.authorization(target);
    const proof = authorization
      ? await authorizer.proofHeaders?.(target, 'POST', authorization)
      : undefined;
    const response = await fetch(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(authorization ? { authorization } : {}),
        ...proof,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: sends, method }),
    });
    if ((response.status !== 401 && response.status !== 403) || sends >= maxSends) return response;
    if (!(await authorizer.challenged(response, target))) return response;
  }
}
