import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { StateKey } from '@rondo/core';
import { resolveKeyRing, type RingKey } from '@rondo/core/internal';
import { isPlainObject, type JsonRpcMessage } from '@rondo/protocol';

/** The method of the one message kind proxies put on the relay: a sealed box around the real one. */
export const SEALED = 'rondo/proxy/sealed';

/** How long a sealed relay message may take to arrive (ms): older ones are refused. */
const MAX_AGE_MS = 60_000;

/** Boxes remembered at most to refuse replays (each for {@link MAX_AGE_MS}). */
const MAX_REMEMBERED = 100_000;

/** Why a relayed message was refused. */
export type RelayRefusal = 'malformed' | 'unauthentic' | 'expired' | 'replayed';

/** The keys sealing relay messages: one derived per ring key, so the state keys are never used as they are. */
interface RelayKey {
  readonly id: string;
  readonly key: Buffer;
}

/**
 * Seals the messages proxies of different processes exchange over the shared relay (Redis), so
 * that access to the relay alone can neither read them nor forge or replay them: each message is
 * encrypted and authenticated (AES-256-GCM) under a key derived (HKDF-SHA256) from the newest key
 * of the gateway's key ring, bound to the process it is for, stamped with its time and a random
 * id; a box under another key of the ring still opens (rotation), one that fails authentication,
 * arrived too late, or was seen before is refused.
 */
export class RelaySeal {
  private readonly keys: readonly RelayKey[];
  /** The ids of boxes opened, with when they expire. */
  private readonly seen = new Map<string, number>();

  constructor(
    keys?: readonly StateKey[],
    private readonly now: () => number = Date.now,
  ) {
    const ring = resolveKeyRing({ keys });
    // Without configured keys, one random key per process: its proxies still reach each other
    // (replicas need shared keys anyway, as their sealed states do).
    this.keys = ring.random ? processKeys() : ring.keys.map(derive);
  }

  /** `message` for the process at relay address `to`, as the relay carries it. */
  seal(to: string, message: JsonRpcMessage): JsonRpcMessage {
    const { id, key } = this.keys[0]!;
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(Buffer.from(`${id}|${to}`));
    const body = JSON.stringify({ m: message, t: this.now() });
    const sealed = Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]);
    const box = [id, nonce, sealed, cipher.getAuthTag()]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
    return { jsonrpc: '2.0', method: SEALED, params: { box } };
  }

  /** The message a relayed one for `to` carries, or why it was refused. */
  open(to: string, relayed: JsonRpcMessage): JsonRpcMessage | RelayRefusal {
    const box = 'method' in relayed && relayed.method === SEALED ? relayed.params?.box : undefined;
    if (typeof box !== 'string') return 'malformed';
    const [id, nonce, sealed, tag, ...more] = box.split('.');
    const key = this.keys.find((candidate) => candidate.id === id)?.key;
    if (key === undefined || nonce === undefined || sealed === undefined || tag === undefined) {
      return more.length > 0 || id === undefined ? 'malformed' : 'unauthentic';
    }
    let body: unknown;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
      decipher.setAAD(Buffer.from(`${id}|${to}`));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const text = Buffer.concat([
        decipher.update(Buffer.from(sealed, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
      body = JSON.parse(text);
    } catch {
      return 'unauthentic';
    }
    if (!isPlainObject(body) || typeof body.t !== 'number' || !isPlainObject(body.m)) {
      return 'malformed';
    }
    const now = this.now();
    if (body.t + MAX_AGE_MS < now || body.t > now + MAX_AGE_MS) return 'expired';
    return this.remember(`${id}.${nonce}`, body.t + MAX_AGE_MS, now)
      ? (body.m as unknown as JsonRpcMessage)
      : 'replayed';
  }

  /** Records box `name` until `expiresAt`; false when it was seen before (or no room is left). */
  private remember(name: string, expiresAt: number, now: number): boolean {
    if (this.seen.has(name)) return false;
    if (this.seen.size >= MAX_REMEMBERED) {
      for (const [seen, until] of this.seen) if (until < now) this.seen.delete(seen);
      if (this.seen.size >= MAX_REMEMBERED) return false;
    }
    this.seen.set(name, expiresAt);
    return true;
  }
}

let randomKeys: readonly RelayKey[] | undefined;

function processKeys(): readonly RelayKey[] {
  randomKeys ??= [derive({ id: '0', bytes: randomBytes(32) })];
  return randomKeys;
}

function derive(ring: RingKey): RelayKey {
  const key = Buffer.from(hkdfSync('sha256', ring.bytes, 'rondo', 'rondo proxy relay v1', 32));
  return { id: ring.id, key };
}
