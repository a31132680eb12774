import { request } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CallbackTarget } from './callbackTarget.js';

/** How one delivery is POSTed. */
export interface PostOptions {
  /** The most time the callback may take to answer (ms). */
  readonly timeoutMs: number;
  /** Certificate authorities trusted instead of Node's (a private PKI, a test's self-signed receiver). */
  readonly ca?: string | Buffer | readonly (string | Buffer)[] | undefined;
}

/**
 * POSTs `body` to a checked callback and answers the HTTP status. The connection goes to the
 * address the check resolved (the URL's host still names the TLS server and the `Host` header), and
 * the answer's body is read and dropped: a callback can make the server hold neither a socket past
 * `timeoutMs` nor its reply.
 */
export function postCallback(
  target: CallbackTarget,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<number> {
  const { address, family } = target.address;
  const pinned = ((_host, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
  return new Promise((resolve, reject) => {
    const posted = request(
      target.url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinned,
        agent: false,
        timeout: options.timeoutMs,
        ...(options.ca === undefined
          ? {}
          : { ca: options.ca as string | Buffer | (string | Buffer)[] }),
      },
      (response) => {
        response.on('error', () => undefined);
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    const deadline = setTimeout(
      () => posted.destroy(new Error('the callback did not answer in time')),
      options.timeoutMs,
    );
    posted.on('close', () => clearTimeout(deadline));
    posted.on('timeout', () => posted.destroy(new Error('the callback did not answer in time')));
    posted.on('error', reject);
    posted.end(body);
  });
}
