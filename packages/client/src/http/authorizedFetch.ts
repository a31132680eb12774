import { messageWithCauses } from '../causes.js';
import { HttpAuthError, TransportError } from '../errors.js';
import type { HttpAuthorizer } from './authorizer.js';
import { fetchFollowingRedirects } from './redirects.js';

/** What every HTTP request of the transport goes through: the authorizer and a fetch. */
export interface AuthorizedFetchOptions {
  readonly fetch: typeof fetch;
  readonly authorizer?: HttpAuthorizer | undefined;
  /** How many times a request is sent again after the authorizer obtained a new token. */
  readonly maxAuthRetries: number;
}

/**
 * Sends one request with the authorizer's `Authorization` header; on 401 or 403 asks the
 * authorizer whether to try again (with a new token), at most `maxAuthRetries` times, then fails
 * with {@link HttpAuthError}. A network failure is a {@link TransportError}. Redirects are
 * followed as `fetchFollowingRedirects` does: another origin gets no header meant for this one
 * (the token included), and its 401 or 403 is not the authorizer's to answer.
 */
export async function authorizedFetch(
  url: URL,
  init: RequestInit & { headers: Record<string, string> },
  options: AuthorizedFetchOptions,
): Promise<Response> {
  for (let attempt = 0; ; attempt += 1) {
    const headers = { ...init.headers };
    const authorization = await options.authorizer?.authorization(url);
    if (authorization !== undefined) {
      headers.Authorization = authorization;
      const proof = await options.authorizer?.proofHeaders?.(
        url,
        init.method ?? 'GET',
        authorization,
      );
      Object.assign(headers, proof);
    }
    let response: Response;
    let answered: URL;
    try {
      ({ response, url: answered } = await fetchFollowingRedirects(options.fetch, url, {
        ...init,
        headers,
      }));
    } catch (error) {
      if (init.signal?.aborted) throw init.signal.reason;
      if (error instanceof TransportError) throw error;
      throw new TransportError(
        `${init.method ?? 'GET'} ${endpointOf(url)} failed: ${messageWithCauses(error)}`,
        undefined,
        { cause: error },
      );
    }
    if (response.status !== 401 && response.status !== 403) return response;
    const again =
      options.authorizer !== undefined &&
      answered.origin === url.origin &&
      attempt < options.maxAuthRetries &&
      (await options.authorizer.challenged(response, url));
    await response.body?.cancel().catch(() => undefined);
    if (!again) {
      throw new HttpAuthError(
        `${init.method ?? 'GET'} ${endpointOf(url)} was refused with HTTP ${response.status}`,
        response.status,
      );
    }
  }
}

/** A URL as errors name it: no user name or password, query or fragment (they may be secrets). */
function endpointOf(url: URL): string {
  return `${url.origin}${url.pathname}`;
}
