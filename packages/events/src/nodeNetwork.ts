import { lookup } from 'node:dns/promises';
import type { HostResolver } from './callbackTarget.js';

// What webhook delivery needs of the network, on Node (`#callbackNetwork` under the `node`
// condition): resolving a callback's host to every address, and posting to the address checked.
// Elsewhere `noNetwork.ts` stands in, so the rest of the package stays free of Node built-ins.

/** True: callbacks can be checked and reached here. */
export const CALLBACKS_REACHABLE = true;

/** Resolves a host name to every address it has (the system resolver). */
export const resolveAll: HostResolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((found) => ({
    address: found.address,
    family: found.family === 6 ? 6 : 4,
  }));

export { postCallback } from './callbackPost.js';
