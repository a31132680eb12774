/**
 * What a `WWW-Authenticate: Bearer ...` challenge (RFC 6750 §3, RFC 9728 §5.1) or a `DPoP ...` one
 * (RFC 9449 §7.1) asks for.
 */
export interface BearerChallenge {
  /** The protected-resource metadata URL (`resource_metadata`). */
  resourceMetadata?: string;
  /** The scopes the resource wants, space-separated (`scope`). */
  scope?: string;
  /** The error code, such as `invalid_token` or `insufficient_scope`. */
  error?: string;
}

/** Longest header value read: a resource cannot make the client scan more. */
const MAX_HEADER_LENGTH = 8192;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;

/**
 * Reads the Bearer challenge of a `WWW-Authenticate` header (several challenges may share the
 * header; the others are skipped). Undefined when there is no Bearer challenge.
 */
export function parseBearerChallenge(header: string | null): BearerChallenge | undefined {
  return parseSchemeChallenge(header, 'bearer');
}

/**
 * Reads the challenge of one scheme (`bearer` or `dpop`, any case) of a `WWW-Authenticate` header;
 * undefined when the header has none of that scheme.
 */
export function parseSchemeChallenge(
  header: string | null,
  scheme: 'bearer' | 'dpop',
): BearerChallenge | undefined {
  if (!header) return undefined;
  const challenges = parseChallenges(header.slice(0, MAX_HEADER_LENGTH));
  const bearer = challenges.find((entry) => entry.scheme.toLowerCase() === scheme);
  if (!bearer) return undefined;
  const result: BearerChallenge = {};
  const resourceMetadata = bearer.params.get('resource_metadata');
  if (resourceMetadata) result.resourceMetadata = resourceMetadata;
  const scope = bearer.params.get('scope');
  if (scope) result.scope = scope;
  const error = bearer.params.get('error');
  if (error) result.error = error;
  return result;
}

interface Challenge {
  scheme: string;
  params: Map<string, string>;
}

/** The RFC 9110 §11.6.1 list: `scheme [token68 | param *("," param)]` entries, commas between. */
function parseChallenges(header: string): Challenge[] {
  const challenges: Challenge[] = [];
  let rest = header;
  let current: Challenge | undefined;
  while (rest.length > 0) {
    rest = rest.replace(/^[\s,]+/, '');
    const name = TOKEN.exec(rest)?.[0];
    if (!name) break;
    rest = rest.slice(name.length);
    const afterSpace = rest.replace(/^\s+/, '');
    if (current && afterSpace.startsWith('=') && !/^=+\s*(,|$)/.test(afterSpace)) {
      const [value, remaining] = readValue(afterSpace.slice(1).replace(/^\s+/, ''));
      current.params.set(name.toLowerCase(), value);
      rest = remaining;
      continue;
    }
    current = { scheme: name, params: new Map() };
    challenges.push(current);
    // A token68 credential after the scheme carries no parameters this client reads.
    rest = afterSpace.replace(/^[A-Za-z0-9\-._~+/]+=*\s*(?=,|$)/, '');
  }
  return challenges;
}

function readValue(text: string): [string, string] {
  if (!text.startsWith('"')) {
    const token = /^[^,\s]*/.exec(text)?.[0] ?? '';
    return [token, text.slice(token.length)];
  }
  let value = '';
  for (let index = 1; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\\') {
      value += text[index + 1] ?? '';
      index += 1;
    } else if (char === '"') {
      return [value, text.slice(index + 1)];
    } else {
      value += char;
    }
  }
  return [value, ''];
}
