import type { HttpRequest } from './edge.js';

/** Where the authority of an absolute URL starts (after `scheme://`), or -1. */
function authorityStart(url: string): number {
  const slashes = url.indexOf('//');
  return slashes < 0 ? -1 : slashes + 2;
}

/**
 * The path of a request's URL, without query or fragment, read from the string: a `Request`'s
 * `url` is already serialised (normalised), so this is what `new URL(url).pathname` gives, with
 * no URL object per request.
 */
export function pathOfUrl(url: string): string {
  const authority = authorityStart(url);
  const start = url.indexOf('/', authority < 0 ? 0 : authority);
  if (start < 0) return '/';
  let end = url.length;
  for (let index = start; index < end; index += 1) {
    const unit = url.charCodeAt(index);
    if (unit === 0x3f || unit === 0x23) end = index; // `?`, `#`
  }
  return url.slice(start, end);
}

/** The `host[:port]` of a request's URL (the Host a request without the header was sent to). */
export function hostOfUrl(url: string): string {
  const authority = authorityStart(url);
  if (authority < 0) return '';
  let end = url.indexOf('/', authority);
  if (end < 0) end = url.length;
  const host = url.slice(authority, end);
  const at = host.lastIndexOf('@');
  return at < 0 ? host : host.slice(at + 1);
}

/**
 * A web request's headers as the shared code reads them: a record of lower-case names. Each name
 * is looked up in the `Headers` when first read, and kept: a request reads a dozen of them, and
 * copying them all (which on Node's fetch bridges first builds a whole `Headers`) cost more than
 * the rest of the edge. Enumerating it (a spread, `Object.keys`) copies them all once. Where the
 * runtime's `Headers` has `toJSON` (Bun), that one native call gives the record. The Host falls
 * back to the URL's, for runtimes that keep it out of the headers.
 */
export function lazyHeaders(headers: Headers, url: string): HttpRequest['headers'] {
  // Bun's `Headers` hands over all of them as a record in one native call: cheaper than a proxy.
  const toJSON = (headers as Headers & { toJSON?: () => Record<string, string> }).toJSON;
  if (typeof toJSON === 'function') {
    const record = toJSON.call(headers);
    record.host ??= hostOfUrl(url);
    return record;
  }
  const read = Object.create(null) as Record<string, string | undefined>;
  let whole: Record<string, string> | undefined;
  const all = (): Record<string, string> => {
    if (whole) return whole;
    whole = {};
    headers.forEach((value, name) => ((whole as Record<string, string>)[name] = value));
    whole.host ??= hostOfUrl(url);
    return whole;
  };
  return new Proxy(read, {
    get(cache, name) {
      if (typeof name !== 'string') return undefined;
      if (name in cache) return cache[name];
      const value = lookup(headers, name) ?? (name === 'host' ? hostOfUrl(url) : undefined);
      cache[name] = value;
      return value;
    },
    has: (_cache, name) => typeof name === 'string' && name in all(),
    ownKeys: () => Reflect.ownKeys(all()),
    getOwnPropertyDescriptor: (_cache, name) => Reflect.getOwnPropertyDescriptor(all(), name),
    set: () => false,
    deleteProperty: () => false,
  });
}

/** One header, or undefined (also for a name no header can have, which `Headers` refuses). */
function lookup(headers: Headers, name: string): string | undefined {
  try {
    return headers.get(name) ?? undefined;
  } catch {
    return undefined;
  }
}
