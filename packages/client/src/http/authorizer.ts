/** What the Streamable HTTP transport asks of whoever authorizes its requests (OAuth, a static token). */
export interface HttpAuthorizer {
  /** The `Authorization` header value for the next request to `url`, or undefined for none. */
  authorization(url: URL): Promise<string | undefined>;
  /**
   * Called with a 401 or 403 answer to a request to `url`. Resolves true when the request should be sent
   * again (a new token was obtained), false to give up (the transport then fails with its typed auth error).
   */
  challenged(response: Response, url: URL): Promise<boolean>;
}
