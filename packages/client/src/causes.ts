/** How many causes deep a message goes: the cause of a cause is rarely news past that. */
const MAX_DEPTH = 4;

/** One link's own words: its message, else its code (Node's AggregateError of a connect has none). */
function ownText(link: unknown): string {
  if (!(link instanceof Error)) return String(link);
  const code = (link as { code?: unknown }).code;
  return link.message || (typeof code === 'string' ? code : link.name);
}

/** The next link: the cause, or an AggregateError's first error (one per address tried). */
function nextLink(link: unknown): unknown {
  if (!(link instanceof Error)) return undefined;
  if (link.cause !== undefined) return link.cause;
  return link instanceof AggregateError ? link.errors[0] : undefined;
}

/**
 * An error's message followed by its causes' (`fetch failed: connect ECONNREFUSED 127.0.0.1:9`),
 * so a failure wrapped by fetch says what went wrong underneath (refused, a TLS mismatch, a name
 * that does not resolve); a cause that repeats the text before it is left out.
 */
export function messageWithCauses(error: unknown): string {
  const parts: string[] = [];
  let link: unknown = error;
  for (let depth = 0; depth < MAX_DEPTH && link !== undefined && link !== null; depth += 1) {
    const text = ownText(link);
    if (text && !parts.some((part) => part.includes(text))) parts.push(text);
    link = nextLink(link);
  }
  return parts.join(': ');
}
