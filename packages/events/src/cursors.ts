import { isPlainObject, type Json } from '@rondo/protocol';
import type { Principal, RequestStateOptions } from '@rondo/core';
import { RequestStateSealer } from '@rondo/core/internal';
import { invalidCursor } from './errors.js';
import type { LogPosition } from './occurrenceLog.js';

/** How long a cursor opens unless the extension's `cursors.ttlMs` says otherwise: 7 days. */
export const DEFAULT_CURSOR_TTL_MS = 7 * 24 * 60 * 60_000;

/** What a cursor is bound to: a subscription of one principal. */
export interface CursorBinding {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly principal: Principal | undefined;
}

/** The method name cursors are sealed under, for poll and push alike (one resumes the other). */
const CURSOR_METHOD = 'events/cursor';

/**
 * Opaque, tamper-proof cursors: a log position sealed with core's `RequestStateSealer` (HMAC over
 * the position, the event type, a digest of the arguments, the principal and an expiry). A cursor
 * opens only for the subscription it was issued to; anything else is the spec's invalid-cursor
 * error. Processes sharing `keys` open each other's cursors.
 */
export class CursorCodec {
  private readonly sealer: RequestStateSealer;

  constructor(options: RequestStateOptions = {}) {
    this.sealer = new RequestStateSealer({ ttlMs: DEFAULT_CURSOR_TTL_MS, ...options });
  }

  /** The cursor of `position` for `binding`. */
  seal(position: LogPosition, binding: CursorBinding): Promise<string> {
    return this.sealer.seal(sealBinding(binding), {
      state: { e: position.epoch, s: position.seq },
      carry: null,
    });
  }

  /** The position a cursor names, or the invalid-cursor `McpError`. */
  async open(cursor: string, binding: CursorBinding): Promise<LogPosition> {
    let state: Json | undefined;
    try {
      state = (await this.sealer.open(cursor, sealBinding(binding))).state;
    } catch {
      throw invalidCursor(binding.name);
    }
    if (!isPlainObject(state) || typeof state.e !== 'string' || typeof state.s !== 'number')
      throw invalidCursor(binding.name);
    return { epoch: state.e, seq: state.s };
  }
}

function sealBinding(binding: CursorBinding) {
  return {
    method: CURSOR_METHOD,
    identity: { name: binding.name, arguments: binding.arguments },
    principal: binding.principal?.id,
  };
}
