import type { HttpRequest, HttpResponse } from './edge.js';
import { headerValue, replyEmpty } from './reply.js';

/**
 * CORS for browser clients whose Origin passed the allow-list: the response names that origin and
 * exposes the headers a client must read (the session id, the auth challenge). Answers a preflight
 * (OPTIONS) itself and returns true then.
 */
export function applyCors(req: HttpRequest, res: HttpResponse): boolean {
  const origin = headerValue(req.headers, 'origin');
  if (origin === undefined) return false;
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('vary', 'origin');
  res.setHeader('access-control-expose-headers', 'mcp-session-id, www-authenticate');
  if (req.method !== 'OPTIONS') return false;
  // The origin is allowed, so echoing the headers it asks for grants nothing beyond the allow-list.
  const requested = headerValue(req.headers, 'access-control-request-headers');
  replyEmpty(res, 204, {
    'access-control-allow-methods': 'GET, POST, DELETE',
    ...(requested ? { 'access-control-allow-headers': requested } : {}),
    'access-control-max-age': '600',
  });
  return true;
}
