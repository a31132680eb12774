/**
 * The requestState key ring: which secrets open a sealed state and which one seals, read from the
 * options or the environment and checked once, when a server is made.
 */
import { base64ToBytes, utf8Bytes } from './base64.js';
import { ConfigurationError } from './errors.js';

/** One key of a requestState key ring. */
export interface StateKey {
  /**
   * Names the key inside every state it seals, so a process finds the key that opens it: 1 to 32
   * letters, digits, `_` or `-`, unique in the ring.
   */
  id: string;
  /** At least {@link MIN_STATE_KEY_BYTES} bytes: a string's UTF-8 bytes, or the bytes themselves. */
  secret: string | Uint8Array;
}

/** The shortest requestState key accepted, in bytes (HMAC-SHA256's output size). */
export const MIN_STATE_KEY_BYTES = 32;

/**
 * The id of a ring of one made from a single key (`requestState.key`, `RONDO_STATE_KEY`). To
 * rotate such a key, keep it in the new ring under this id: `RONDO_STATE_KEYS=k2:new,0:old`.
 */
export const SINGLE_STATE_KEY_ID = '0';

/** A checked key: its id and the bytes of its secret. */
export interface RingKey {
  readonly id: string;
  readonly bytes: Uint8Array;
}

/** The keys a sealer uses, newest (the sealing one) first; `random` when none was configured. */
export interface KeyRing {
  readonly keys: readonly [RingKey, ...RingKey[]];
  readonly random: boolean;
}

/** Where a sealer finds its keys. */
export interface KeyRingSettings {
  keys?: readonly StateKey[] | undefined;
  key?: string | Uint8Array | undefined;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const BASE64_PREFIX = 'base64:';
const RULE = `a requestState key needs at least ${MIN_STATE_KEY_BYTES} bytes`;

/**
 * Reads a key ring written as `id:secret` entries separated by commas, newest first:
 * `k2:new-secret,k1:old-secret` (the format of `RONDO_STATE_KEYS` and `--state-keys`). The id ends
 * at the first `:`, so a secret may contain `:`; a secret with a `,` or bytes that are not text is
 * written `base64:` and its standard Base64. Space around an entry is dropped. The ring's rules
 * hold: at least one key, ids of 1 to 32 letters, digits, `_` or `-` with none listed twice, every
 * secret at least {@link MIN_STATE_KEY_BYTES} bytes. A mistake is a {@link ConfigurationError} that
 * names the entry by its position or id and never quotes a secret. `source` is what the messages call the text
 * (a command-line flag, say).
 */
export function parseStateKeys(text: string, source = 'RONDO_STATE_KEYS'): StateKey[] {
  const keys = text.split(',').map((raw, index) => {
    const entry = raw.trim();
    const colon = entry.indexOf(':');
    if (colon < 0) {
      throw new ConfigurationError(
        `${source}: entry ${index + 1} is not id:secret (entries are separated by commas)`,
      );
    }
    const id = entry.slice(0, colon);
    if (!KEY_ID.test(id)) throw badId(source, index);
    return { id, secret: secretOf(entry.slice(colon + 1), source, id) };
  });
  checkStateKeys(keys, source);
  return keys;
}

/**
 * Checks a key ring: at least one key, ids of 1 to 32 letters, digits, `_` or `-` with none
 * listed twice, and every secret at least {@link MIN_STATE_KEY_BYTES} bytes long. Throws a
 * {@link ConfigurationError} naming the rule and the key's id; returns the keys' bytes.
 */
export function checkStateKeys(
  keys: readonly StateKey[],
  source = 'requestState.keys',
): KeyRing['keys'] {
  const [first, ...rest] = keys.map((key, index) => ringKey(key, index, source));
  if (first === undefined) {
    throw new ConfigurationError(
      `${source}: the key ring is empty; list at least one key (the first one seals)`,
    );
  }
  const seen = new Set<string>();
  for (const { id } of [first, ...rest]) {
    if (seen.has(id))
      throw new ConfigurationError(`${source}: the key id "${id}" is listed twice; ids are unique`);
    seen.add(id);
  }
  return [first, ...rest];
}

/**
 * The key ring of a sealer, from the first of: `keys`, `key`, `RONDO_STATE_KEYS`,
 * `RONDO_STATE_KEY`; a random key when none is set. `keys` with `key`, or both variables set, is
 * a {@link ConfigurationError}: which one wins would be a guess.
 */
export function resolveKeyRing(settings: KeyRingSettings): KeyRing {
  const { keys, key } = settings;
  if (keys !== undefined && key !== undefined) {
    throw new ConfigurationError('requestState: give `keys` (a ring) or `key` (one key), not both');
  }
  if (keys !== undefined) return { keys: checkStateKeys(keys), random: false };
  if (key !== undefined) return singleKey(key, 'The requestState key');
  // Read when a server is made, never at import: Workers have no `process` at all.
  const ring = environment('RONDO_STATE_KEYS');
  const single = environment('RONDO_STATE_KEY');
  if (ring && single) {
    throw new ConfigurationError(
      'RONDO_STATE_KEYS and RONDO_STATE_KEY are both set; set one (a single key is ' +
        `RONDO_STATE_KEYS=${SINGLE_STATE_KEY_ID}:<secret>)`,
    );
  }
  if (ring)
    return { keys: checkStateKeys(parseStateKeys(ring), 'RONDO_STATE_KEYS'), random: false };
  return singleKey(single ?? '', 'RONDO_STATE_KEY');
}

/** One configured key as a ring of one; an empty one means "none": a random key is drawn. */
function singleKey(secret: string | Uint8Array, source: string): KeyRing {
  if (secret.length === 0) {
    const bytes = crypto.getRandomValues(new Uint8Array(MIN_STATE_KEY_BYTES));
    return { keys: [{ id: SINGLE_STATE_KEY_ID, bytes }], random: true };
  }
  const bytes = typeof secret === 'string' ? utf8Bytes(secret) : secret;
  if (bytes.length < MIN_STATE_KEY_BYTES)
    throw new ConfigurationError(`${source} is ${byteCount(bytes)} long; ${RULE}`);
  return { keys: [{ id: SINGLE_STATE_KEY_ID, bytes }], random: false };
}

function ringKey(key: StateKey, index: number, source: string): RingKey {
  if (typeof key.id !== 'string' || !KEY_ID.test(key.id)) throw badId(source, index);
  const bytes = typeof key.secret === 'string' ? utf8Bytes(key.secret) : key.secret;
  if (!(bytes instanceof Uint8Array))
    throw new ConfigurationError(`${source}: the key "${key.id}" has no secret`);
  if (bytes.length < MIN_STATE_KEY_BYTES) {
    throw new ConfigurationError(
      `${source}: the key "${key.id}" is ${byteCount(bytes)} long; ${RULE}`,
    );
  }
  return { id: key.id, bytes };
}

function secretOf(text: string, source: string, id: string): string | Uint8Array {
  if (!text.startsWith(BASE64_PREFIX)) return text;
  try {
    return base64ToBytes(text.slice(BASE64_PREFIX.length));
  } catch {
    throw new ConfigurationError(
      `${source}: the secret of key "${id}" starts with ${BASE64_PREFIX} but the rest is not Base64`,
    );
  }
}

function byteCount(bytes: Uint8Array): string {
  return bytes.length === 1 ? '1 byte' : `${bytes.length} bytes`;
}

function badId(source: string, index: number): ConfigurationError {
  // The text is not quoted: a missing id would put the secret itself in the message.
  return new ConfigurationError(
    `${source}: the id of key ${index + 1} is not 1 to 32 letters, digits, "_" or "-"`,
  );
}

/** A variable from the environment, where the runtime has one. */
function environment(name: string): string | undefined {
  const host = globalThis as { process?: { env?: Record<string, string | undefined> } };
  return host.process?.env?.[name];
}
