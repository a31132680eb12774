import { TransportError } from '../errors.js';

/** Redirects one request follows at most, as browsers bound them. */
export const MAX_REDIRECTS = 5;

/** The headers a request keeps when a redirect sends it to another origin: the protocol's own. */
const CROSS_ORIGIN_HEADERS = new Set([
  'accept',
  'content-type',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'last-event-id',
]);

/** A request's answer and the URL that gave it (another than asked after a redirect). */
export interface FollowedResponse {
  readonly response: Response;
  readonly url: URL;
}

/**
 * Sends a request and follows its redirects itself (at most {@link MAX_REDIRECTS}), so that a
 * redirect to another origin carries none of the headers meant for the first one: a static API
 * key, `Authorization`, the session id, `Mcp-Param-*` values; only the protocol's own headers
 * (`Accept`, `Content-Type`, `MCP-Protocol-Version`...) go on. 307 and 308 resend the method and
 * body; 301, 302 and 303 turn a POST into a body-less GET, as fetch does. A runtime that hides
 * redirects (a browser's opaque redirect) fails with a {@link TransportError}.
 */
export async function fetchFollowingRedirects(
  fetcher: typeof fetch,
  url: URL,
  init: RequestInit & { headers: Record<string, string> },
): Promise<FollowedResponse> {
  let current = url;
  let request = init;
  for (let redirects = 0; ; redirects += 1) {
    const response = await fetcher(current, { ...request, redirect: 'manual' });
    if (response.type === 'opaqueredirect') {
      throw new TransportError(
        `${request.method ?? 'GET'} was redirected where it cannot be followed`,
      );
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || location === null) {
      return { response, url: current };
    }
    await response.body?.cancel().catch(() => undefined);
    if (redirects >= MAX_REDIRECTS) {
      throw new TransportError(`more than ${MAX_REDIRECTS} redirects`, undefined);
    }
    const next = new URL(location, current);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new TransportError(`redirected to a ${next.protocol} URL`);
    }
    request = redirected(request, response.status, next.origin === current.origin);
    current = next;
  }
}

function redirected(
  init: RequestInit & { headers: Record<string, string> },
  status: number,
  sameOrigin: boolean,
): RequestInit & { headers: Record<string, string> } {
  const headers = sameOrigin
    ? { ...init.headers }
    : Object.fromEntries(
        Object.entries(init.headers).filter(([name]) =>
          CROSS_ORIGIN_HEADERS.has(name.toLowerCase()),
        ),
      );
  const keepsMethod = status === 307 || status === 308 || (init.method ?? 'GET') === 'GET';
  if (keepsMethod) return { ...init, headers };
  delete headers['Content-Type'];
  delete headers['content-type'];
  return { ...init, method: 'GET', body: null, headers };
}
