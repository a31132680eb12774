/**
 * An origin in the form browsers send it (`scheme://host[:port]`, lower case, default port left
 * out), or undefined for an opaque (`null`) or unparsable one. Two origins are the same when
 * their normal forms are equal.
 */
export function normaliseOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? undefined : url.origin.toLowerCase();
  } catch {
    return undefined;
  }
}
