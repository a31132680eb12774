import { ErrorCode, McpError, type Json } from '@rondo/protocol';
import { base64UrlToText, bytesToBase64Url, textToBase64Url, utf8Bytes } from './base64.js';
import { ConfigurationError } from './errors.js';
import { stableStringify } from './stableJson.js';

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

export interface RequestStateOptions {
  /**
   * The secret key, at least 32 bytes ({@link MIN_STATE_KEY_BYTES}); several server instances
   * behind one endpoint need the same one.
   */
  key?: string | Uint8Array;
  /** How long a state stays valid, in milliseconds (default 10 minutes). */
  ttlMs?: number;
  /**
   * Called once, at the first state sealed with a random key (none was given) after
   * {@link RequestStateSealer.expectSeveralProcesses}: only then can another process be asked to
   * open it.
   */
  warn?: (message: string) => void;
  /** The clock, in milliseconds. */
  now?: () => number;
}

const INVALID_STATE = 'Invalid or expired requestState';

const RANDOM_KEY_WARNING =
  'a round hook sealed its requestState with a random per-process key; another process serving ' +
  'this endpoint (a second instance, or this one restarted) will refuse the next round with ' +
  '"Invalid or expired requestState". Fix: give every instance the same secret of 32 bytes or more, ' +
  'in RONDO_STATE_KEY (for example `export RONDO_STATE_KEY=$(openssl rand -base64 32)`) or in ' +
  'createServer({ requestState: { key } })';

/** The shortest requestState key accepted, in bytes (HMAC-SHA256's output size). */
export const MIN_STATE_KEY_BYTES = 32;

/**
 * Seals and opens `requestState` tokens: base64url(payload).base64url(HMAC-SHA256). The payload
 * binds the provider's state to the method, a digest of the request's identity, an expiry and the
 * principal, so a client can neither forge a state nor replay it against other arguments.
 */
export class RequestStateSealer {
  private readonly key: ReturnType<typeof crypto.subtle.importKey>;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly warn: ((message: string) => void) | undefined;
  /** True when no key was configured and a random one was drawn. */
  readonly randomKey: boolean;
  private shared = false;

  constructor(options: RequestStateOptions = {}) {
    // Read when a server is made, never at import: Workers have no `process` at all.
    const configured = options.key ?? environmentKey();
    this.warn = options.warn;
    let raw: Uint8Array;
    if (configured === undefined || configured.length === 0) {
      this.randomKey = true;
      raw = crypto.getRandomValues(new Uint8Array(32));
    } else {
      this.randomKey = false;
      raw = typeof configured === 'string' ? utf8Bytes(configured) : configured;
      if (raw.length < MIN_STATE_KEY_BYTES) throw shortKey(options.key, raw.length);
    }
    // WebCrypto (every runtime has it) rather than node:crypto; its operations are asynchronous.
    this.key = crypto.subtle.importKey(
      'raw',
      new Uint8Array(raw),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    this.now = options.now ?? Date.now;
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
    };
    const body = textToBase64Url(JSON.stringify(payload));
    const signature = await crypto.subtle.sign('HMAC', await this.key, utf8Bytes(body));
    return `${body}.${bytesToBase64Url(new Uint8Array(signature))}`;
  }

  /**
   * Opens a token sealed by {@link seal}. A token that was tampered with, has expired, or belongs to
   * another method, other params or another principal is refused with -32602.
   */
  async open(token: unknown, binding: SealedStateBinding): Promise<OpenedState> {
    if (typeof token !== 'string') throw invalidState();
    const dot = token.indexOf('.');
    if (dot <= 0) throw invalidState();
    const body = token.slice(0, dot);
    if (!(await this.verify(body, token.slice(dot + 1)))) throw invalidState();
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
    return { state: payload.s === null ? undefined : payload.s.v, carry: payload.c };
  }

  /** Recomputes the signature and compares it in constant time; only its canonical text passes. */
  private async verify(body: string, signature: string): Promise<boolean> {
    const expected = await crypto.subtle.sign('HMAC', await this.key, utf8Bytes(body));
    const canonical = bytesToBase64Url(new Uint8Array(expected));
    if (canonical.length !== signature.length) return false;
    let difference = 0;
    for (let index = 0; index < canonical.length; index += 1)
      difference |= canonical.charCodeAt(index) ^ signature.charCodeAt(index);
    return difference === 0;
  }
}

/** RONDO_STATE_KEY from the environment, where the runtime has one. */
function environmentKey(): string | undefined {
  const host = globalThis as { process?: { env?: Record<string, string | undefined> } };
  return host.process?.env?.RONDO_STATE_KEY;
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

function invalidState(): McpError {
  return new McpError(ErrorCode.InvalidParams, INVALID_STATE);
}

function shortKey(option: RequestStateOptions['key'], bytes: number): ConfigurationError {
  const source = option === undefined ? 'RONDO_STATE_KEY' : 'The requestState key';
  return new ConfigurationError(
    `${source} is ${bytes} bytes long; a requestState key needs at least ${MIN_STATE_KEY_BYTES} bytes`,
  );
}
