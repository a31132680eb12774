import { ErrorCode, McpError, type Json } from '@rondo/protocol';
import { base64UrlToText, bytesToBase64Url, textToBase64Url, utf8Bytes } from './base64.js';
import { MemoryUsedStateStore, type UsedStateStore } from './shared/usedStates.js';
import { stableStringify } from './stableJson.js';
import { resolveKeyRing, type StateKey } from './stateKeys.js';

/** What a sealed requestState binds together. */
export interface SealedStateBinding {
  /** The method of the request (`tools/call`, `prompts/get`, `resources/read`). */
  method: string;
  /** The params that identify the request: tool name and arguments, prompt name and arguments, or uri. */
  identity: unknown;
  /** The principal's id, when the request was authenticated. */
  principal?: string | undefined;
}

/** The opened contents of a sealed requestState. */
export interface OpenedState {
  /** The provider's own state (any JSON value). */
  state: Json | undefined;
  /** Adapter bookkeeping carried between rounds (the requests sent, the round number). */
  carry: Json;
}

/** How a server seals `requestState` (`createServer({ requestState })`). */
export interface RequestStateOptions {
  /**
   * The key ring, newest first: the first key seals, every key opens what it sealed, so a key is
   * rotated by listing the new one first and dropping the old one once the states it sealed have
   * expired (`ttlMs`). Each secret is at least 32 bytes (`MIN_STATE_KEY_BYTES`); every
   * server instance behind one endpoint needs the same ring. Without `keys` and `key`, the ring is
   * read from `RONDO_STATE_KEYS` (in the format `parseStateKeys` reads) or `RONDO_STATE_KEY`.
   */
  keys?: readonly StateKey[];
  /**
   * One secret key, at least 32 bytes: a ring of one whose id is `SINGLE_STATE_KEY_ID` (`"0"`).
   * Give `keys` or `key`, not both.
   */
  key?: string | Uint8Array;
  /** How long a state stays valid, in milliseconds (default 10 minutes). */
  ttlMs?: number;
  /**
   * States accepted once only (default: none). A sealed state can otherwise be sent again while
   * it is valid, and the round it continues runs again (a confirm-then-pay round pays twice).
   * `true` for every round request, or the tool and prompt names (and resource URIs) whose
   * requestState is accepted once: a second retry with the same state is -32602
   * `Invalid or expired requestState`. The ids of accepted states are kept until they expire, in
   * `usedStates`, else the shared state's (`createServer({ shared })`), else this process's.
   */
  oneTime?: boolean | readonly string[];
  /** Where accepted one-time states are recorded (see `oneTime`). */
  usedStates?: UsedStateStore;
  /** The cap of the in-process record of accepted one-time states (default 100,000). */
  maxUsedStates?: number;
  /**
   * Called once, at the first state sealed with a random key (none was given) once the server is
   * served over a network transport (HTTP, WebSocket): only then can another process be asked to
   * open it.
   */
  warn?: (message: string) => void;
  /** The clock, in milliseconds. */
  now?: () => number;
}

/** A WebCrypto key (the core is built without the DOM types that name `CryptoKey`). */
type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

const INVALID_STATE = 'Invalid or expired requestState';

/**
 * Why a well-formed token fails its signature: almost always another process sealed it with other
 * keys (a replica, or this process before a restart with a random key), so the fix is named.
 */
const FOREIGN_STATE =
  `${INVALID_STATE}: it was not sealed with this server's keys. Another process (a replica, or ` +
  'this one before a restart) sealed it with different keys, or it was altered: give every process ' +
  'the same RONDO_STATE_KEY (or requestState.keys); see docs/scale-out.md';

const RANDOM_KEY_WARNING =
  'a round hook sealed its requestState with a random per-process key; another process serving ' +
  'this endpoint (a second instance, or this one restarted) will refuse the next round with ' +
  '"Invalid or expired requestState". Fix: give every instance the same secret of 32 bytes or more, ' +
  'in RONDO_STATE_KEY (for example `export RONDO_STATE_KEY=$(openssl rand -base64 32)`) or in ' +
  'createServer({ requestState: { key } }); to rotate keys, a ring in RONDO_STATE_KEYS or ' +
  'requestState: { keys }';

/**
 * Seals and opens `requestState` tokens: `keyId.base64url(payload).base64url(HMAC-SHA256)`, the
 * MAC taken over the key id and the payload. The payload binds the provider's state to the
 * method, a digest of the request's identity, an expiry and the principal, so a client can
 * neither forge a state nor replay it against other arguments. A token whose key id is not in the
 * ring is refused like a forged one.
 */
export class RequestStateSealer {
  /** The ring's keys by id, as WebCrypto HMAC keys. */
  private readonly keys: ReadonlyMap<string, Promise<HmacKey>>;
  /** The id of the newest key, which seals, and that key. */
  private readonly sealingId: string;
  private readonly sealingKey: Promise<HmacKey>;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly warn: ((message: string) => void) | undefined;
  /** True when no key was configured and a random one was drawn. */
  readonly randomKey: boolean;
  private shared = false;
  private readonly oneTime: boolean | ReadonlySet<string>;
  private usedStates: UsedStateStore | undefined;
  private readonly maxUsedStates: number | undefined;

  constructor(options: RequestStateOptions = {}) {
    const ring = resolveKeyRing(options);
    this.randomKey = ring.random;
    this.sealingId = ring.keys[0].id;
    // WebCrypto (every runtime has it) rather than node:crypto; its operations are asynchronous.
    this.keys = new Map(ring.keys.map(({ id, bytes }) => [id, hmacKey(bytes)]));
    this.sealingKey = this.keys.get(this.sealingId) ?? hmacKey(ring.keys[0].bytes);
    this.warn = options.warn;
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    this.now = options.now ?? Date.now;
    const { oneTime = false } = options;
    this.oneTime = typeof oneTime === 'boolean' ? oneTime : new Set(oneTime);
    this.usedStates = options.usedStates;
    this.maxUsedStates = options.maxUsedStates;
  }

  /**
   * Says the server is reachable where more than one process could answer the same client (HTTP or
   * WebSocket, behind a load balancer or across a restart). A random key then matters: the first
   * state sealed with it is warned about, with the fix. Over stdio nobody calls this, so nothing is
   * printed.
   */
  expectSeveralProcesses(): void {
    this.shared = true;
  }

  /** Seals a state for a request; the token is opaque to the client. */
  async seal(binding: SealedStateBinding, opened: OpenedState): Promise<string> {
    if (this.shared && this.randomKey) {
      this.shared = false;
      this.warn?.(RANDOM_KEY_WARNING);
    }
    const payload = {
      m: binding.method,
      d: await digestIdentity(binding.identity),
      p: binding.principal ?? null,
      e: this.now() + this.ttlMs,
      s: opened.state === undefined ? null : { v: opened.state },
      c: opened.carry,
      // A nonce, so two rounds sealed alike in the same millisecond are two states (`oneTime`).
      n: bytesToBase64Url(crypto.getRandomValues(new Uint8Array(12))),
    };
    const signed = `${this.sealingId}.${textToBase64Url(JSON.stringify(payload))}`;
    const signature = await crypto.subtle.sign('HMAC', await this.sealingKey, utf8Bytes(signed));
    return `${signed}.${bytesToBase64Url(new Uint8Array(signature))}`;
  }

  /**
   * Opens a token sealed by {@link seal} with any key of the ring. A token that was tampered with,
   * has expired, names a key the ring does not hold, or belongs to another method, other params or
   * another principal is refused with -32602; one whose signature this ring cannot verify says that
   * the keys differ between processes, and how to share them.
   */
  async open(token: unknown, binding: SealedStateBinding): Promise<OpenedState> {
    if (typeof token !== 'string') throw invalidState();
    const [id, body, signature, ...more] = token.split('.');
    const key = id === undefined ? undefined : this.keys.get(id);
    if (id === undefined || body === undefined || signature === undefined || more.length > 0)
      throw invalidState();
    if (key === undefined || !(await verify(await key, `${id}.${body}`, signature)))
      throw invalidState(FOREIGN_STATE);
    const payload = parsePayload(body);
    if (
      payload === undefined ||
      payload.e < this.now() ||
      payload.m !== binding.method ||
      payload.d !== (await digestIdentity(binding.identity)) ||
      payload.p !== (binding.principal ?? null)
    ) {
      throw invalidState();
    }
    // The signature names the state: accepted once, it is refused from then on, everywhere.
    if (this.isOneTime(binding) && !(await this.used().claim(signature, payload.e)))
      throw invalidState();
    return { state: payload.s === null ? undefined : payload.s.v, carry: payload.c };
  }

  private isOneTime(binding: SealedStateBinding): boolean {
    if (typeof this.oneTime === 'boolean') return this.oneTime;
    const target = targetOf(binding.identity);
    return target !== undefined && this.oneTime.has(target);
  }

  private used(): UsedStateStore {
    this.usedStates ??= new MemoryUsedStateStore(this.maxUsedStates, this.now);
    return this.usedStates;
  }
}

/** Recomputes the signature and compares it in constant time; only its canonical text passes. */
async function verify(key: HmacKey, signed: string, signature: string): Promise<boolean> {
  const expected = await crypto.subtle.sign('HMAC', key, utf8Bytes(signed));
  const canonical = bytesToBase64Url(new Uint8Array(expected));
  if (canonical.length !== signature.length) return false;
  let difference = 0;
  for (let index = 0; index < canonical.length; index += 1)
    difference |= canonical.charCodeAt(index) ^ signature.charCodeAt(index);
  return difference === 0;
}

function hmacKey(bytes: Uint8Array): Promise<HmacKey> {
  return crypto.subtle.importKey(
    'raw',
    new Uint8Array(bytes),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
}

interface Payload {
  m: string;
  d: string;
  p: string | null;
  e: number;
  s: { v: Json } | null;
  c: Json;
}

function parsePayload(body: string): Payload | undefined {
  try {
    const value = JSON.parse(base64UrlToText(body)) as Partial<Payload>;
    if (typeof value.m !== 'string' || typeof value.d !== 'string' || typeof value.e !== 'number')
      return undefined;
    return value as Payload;
  } catch {
    return undefined;
  }
}

async function digestIdentity(identity: unknown): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', utf8Bytes(stableStringify(identity)));
  return bytesToBase64Url(new Uint8Array(digest));
}

/** The tool or prompt name, or the resource URI, a request's identity names. */
function targetOf(identity: unknown): string | undefined {
  if (typeof identity === 'string') return identity;
  if (typeof identity !== 'object' || identity === null) return undefined;
  const { name, uri } = identity as { name?: unknown; uri?: unknown };
  if (typeof name === 'string') return name;
  return typeof uri === 'string' ? uri : undefined;
}

function invalidState(message = INVALID_STATE): McpError {
  return new McpError(ErrorCode.InvalidParams, message);
}
