import type { HttpRequest } from './edge.js';
import {
  checkHostAndOrigin,
  countHostLines,
  type HostGuardPolicy,
  type HostGuardVerdict,
} from '@rondo/core';
import { headerValue } from './reply.js';

/** The Host / Origin guard of `@rondo/core`, fed from a request. */
export function guardHostAndOrigin(req: HttpRequest, guard: HostGuardPolicy): HostGuardVerdict {
  return checkHostAndOrigin(
    {
      host: headerValue(req.headers, 'host'),
      origin: headerValue(req.headers, 'origin'),
      localAddress: req.socket?.localAddress,
      hostLines: countHostLines(req.rawHeaders),
    },
    guard,
  );
}

/**
 * The Host check alone, for public documents any origin may read (a Server Card, a catalog):
 * browsers' Origin is not checked, the Host is, as on the MCP endpoint.
 */
export function guardHost(req: HttpRequest, guard: HostGuardPolicy): HostGuardVerdict {
  return checkHostAndOrigin(
    {
      host: headerValue(req.headers, 'host'),
      origin: undefined,
      localAddress: req.socket?.localAddress,
      hostLines: countHostLines(req.rawHeaders),
    },
    guard,
  );
}

/** True when the Content-Type names JSON (`application/json`, parameters such as charset allowed). */
export function isJsonContentType(value: string | undefined): boolean {
  // Clients send the same Content-Type on every request: the last answer is kept.
  if (value === lastContentType.value) return lastContentType.json;
  const json = mediaType(value ?? '') === 'application/json';
  lastContentType = { value, json };
  return json;
}

let lastContentType: { value: string | undefined; json: boolean } = {
  value: undefined,
  json: false,
};

/**
 * True when an Accept header allows every one of `types` (wildcards and `q=0` honoured). A missing
 * Accept allows nothing: the transport spec requires clients to list what they take.
 */
export function acceptsAll(accept: string | undefined, types: readonly string[]): boolean {
  if (!accept) return false;
  // Clients send the same Accept on every request: the last answer per list of types is kept.
  const memo = acceptMemos.get(types);
  if (memo?.accept === accept) return memo.accepted;
  const accepted = matchesAll(accept, types);
  acceptMemos.set(types, { accept, accepted });
  return accepted;
}

const acceptMemos = new WeakMap<readonly string[], { accept: string; accepted: boolean }>();

function matchesAll(accept: string, types: readonly string[]): boolean {
  const ranges = accept.split(',').map(parseRange);
  return types.every((type) => {
    const [major] = type.split('/');
    return ranges.some(
      (range) =>
        range.q > 0 && (range.type === type || range.type === `${major}/*` || range.type === '*/*'),
    );
  });
}

function parseRange(range: string): { type: string; q: number } {
  const [type = '', ...params] = range.split(';');
  const q = params
    .map((param) => param.trim())
    .find((param) => param.toLowerCase().startsWith('q='));
  return { type: type.trim().toLowerCase(), q: q === undefined ? 1 : Number(q.slice(2)) || 0 };
}

function mediaType(value: string): string {
  return (value.split(';')[0] ?? '').trim().toLowerCase();
}
