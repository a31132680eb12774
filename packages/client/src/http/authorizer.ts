/** What the Streamable HTTP transport asks of whoever authorizes its requests (OAuth, a static token). */
export interface HttpAuthorizer {
  /** The `Authorization` header value for the next request to `url`, or undefined for none. */
  authorization(url: URL): Promise<string | undefined>;
  /**
   * Headers proving possession of the key a token is bound to (the `DPoP` proof, RFC 9449 §7.1)
   * for one `method` request to `url` carrying `authorization`. Asked for every request that
   * carries an `Authorization` header, retries included, so each gets a fresh proof.
   */
  proofHeaders?(url: URL, method: string, authorization: string): Promise<Record<string, string>>;
  /**
   * Called with a 401 or 403 answer to a request to `url`. Resolves true when the request should be sent
   * again (a new token was obtained), false to give up (the transport then fails with its typed auth error).
   */
  challenged(response: Response, url: URL): Promise<boolean>;
}
