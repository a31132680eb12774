/**
 * Hides what looks like a secret in text the traffic view shows to whoever opens it: the values of
 * a URI's query and fragment (`?api_key=…`), a URI's user info (`https://user:pass@`), bearer and
 * basic credentials, `key=value` pairs whose key names a secret, JWTs and long opaque tokens. The
 * shape of the text stays readable (`demo://notes?api_key=[redacted]`); the secret does not.
 */
export function redactSecrets(text: string): string {
  return RULES.reduce(
    (redacted, [pattern, replacement]) => redacted.replace(pattern, replacement),
    text,
  );
}

const HIDDEN = '[redacted]';

const RULES: readonly (readonly [RegExp, string])[] = [
  // A JWT first: its dots would otherwise leave parts of it to the opaque-token rule.
  [/\beyJ[\w-]*\.[\w-]*\.[\w-]*/g, HIDDEN],
  [/(\b[a-z][a-z\d+.-]*:\/\/)[^/?#\s@]+@/gi, `$1${HIDDEN}@`],
  [/([?&#;][^=&#;?\s]+=)[^&#;\s]*/g, `$1${HIDDEN}`],
  [/\b(bearer|basic|token)(\s+)[\w.~+/=-]+/gi, `$1$2${HIDDEN}`],
  [
    /\b([\w-]*(?:api[_-]?key|token|secret|password|passwd|credential|session[_-]?id|auth)[\w-]*)(["']?\s*[:=]\s*["']?)[^\s"'&,;]+/gi,
    `$1$2${HIDDEN}`,
  ],
  // Anything long and opaque: hex digests, base64 keys, random ids.
  [/[\w+/=-]{32,}/g, HIDDEN],
];
