import { validateMessage, type JsonRpcMessage } from '@rondo/protocol';
import { nestsDeeperThan } from '@rondo/core/internal';
import { ProtocolViolationError } from './errors.js';

/** How large and how deep a message from the server may be. */
export interface FrameLimits {
  /** Largest frame (a stdio line, an HTTP body, an SSE event, a WebSocket message) in bytes. Default 16 MiB. */
  readonly maxFrameBytes?: number;
  /** Deepest nesting of arrays and objects in a message. Default 64. */
  readonly maxDepth?: number;
}

/** The default of {@link FrameLimits.maxFrameBytes}: 16 MiB. */
export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;
/** The default of {@link FrameLimits.maxDepth}. */
export const DEFAULT_MAX_DEPTH = 64;

/** The outcome of decoding one frame: a message, or why the frame was refused. */
export type FrameOutcome =
  | { ok: true; message: JsonRpcMessage }
  | {
      ok: false;
      error: ProtocolViolationError;
      /** The frame's top-level `id`, when it could be read: the request the bad answer was for. */
      id?: string | number;
    };

/**
 * Decodes one frame from the server. Checks come in the order that bounds the work: the size before
 * parsing, the depth before any schema walks the value (a deep value would overflow a recursive
 * validator's stack), then the JSON-RPC shape.
 */
export function decodeFrame(text: string, limits: FrameLimits = {}): FrameOutcome {
  const maxBytes = limits.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  // A UTF-16 length bounds the UTF-8 size from below; the exact count is only needed near the cap.
  if (text.length > maxBytes || (text.length * 3 > maxBytes && byteLength(text) > maxBytes)) {
    return refuse(`a frame of more than ${maxBytes} bytes (limit maxFrameBytes)`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse('a frame that is not JSON');
  }
  const maxDepth = limits.maxDepth ?? DEFAULT_MAX_DEPTH;
  const id = topLevelId(value);
  if (nestsDeeperThan(value, maxDepth)) {
    return refuse(`a message nesting deeper than ${maxDepth} levels (limit maxDepth)`, id);
  }
  const outcome = validateMessage(value);
  if (!outcome.ok) return refuse(`not a JSON-RPC message: ${outcome.error.error.message}`, id);
  return outcome;
}

function topLevelId(value: unknown): string | number | undefined {
  if (typeof value !== 'object' || value === null || 'method' in value) return undefined;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

const utf8 = new TextEncoder();

function byteLength(text: string): number {
  return utf8.encode(text).length;
}

function refuse(what: string, id?: string | number): FrameOutcome {
  const error = new ProtocolViolationError(`the server sent ${what}`);
  return id === undefined ? { ok: false, error } : { ok: false, error, id };
}
