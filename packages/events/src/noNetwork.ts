import type { postCallback as nodePost } from './callbackPost.js';
import type { HostResolver } from './callbackTarget.js';

// `#callbackNetwork` outside Node (Workers, Deno, Bun bundles): no resolver that can pin an
// address, so webhook callbacks are refused at subscribe time and nothing is ever posted.

/** False: this runtime cannot check a callback's addresses and connect to the one checked. */
export const CALLBACKS_REACHABLE = false;

/** Never called: a callback is refused before its host would be resolved. */
export const resolveAll: HostResolver = () =>
  Promise.reject(new Error('webhook callbacks are delivered on Node only'));

/** Never called: nothing is subscribed, so nothing is delivered. */
export const postCallback: typeof nodePost = () =>
  Promise.reject(new Error('webhook callbacks are delivered on Node only'));
