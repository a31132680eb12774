import { ErrorCode, McpError } from '@rondo/protocol';
import type { Middleware } from '@rondo/core';

/** Options of {@link responseSizeCap}. */
export interface ResponseSizeCapOptions {
  /** The largest answer, in characters of its JSON. */
  maxChars: number;
  /**
   * `truncate` (default): text is cut, the last text first, each cut ending with `marker`; an
   * answer that cannot fit by cutting text (large images, structured content) is refused.
   * `refuse`: the call fails with -32603 naming both sizes.
   */
  mode?: 'truncate' | 'refuse';
  /** What ends a cut text (default `\n[truncated]`). */
  marker?: string;
  /** The methods capped (default `tools/call`, `prompts/get`, `resources/read`). */
  methods?: readonly string[];
}

const DEFAULT_METHODS = ['tools/call', 'prompts/get', 'resources/read'];
const TEXT_KINDS = new Set(['text', 'error', 'text_content']);

/** A place a text sits in an answer: an object of a text kind and its `text`. */
interface TextHolder {
  text: string;
}

/**
 * Caps the size of each answer so one call cannot make the server build, hold and send an answer
 * of any size: text is cut with a marker, or the call is refused, as configured.
 */
export function responseSizeCap(options: ResponseSizeCapOptions): Middleware {
  const maxChars = options.maxChars;
  if (!Number.isFinite(maxChars) || maxChars <= 0)
    throw new RangeError('responseSizeCap: maxChars must be > 0');
  const marker = options.marker ?? '\n[truncated]';
  const methods = new Set(options.methods ?? DEFAULT_METHODS);
  const truncate = (options.mode ?? 'truncate') === 'truncate';
  return async (call, next) => {
    const result = await next();
    if (!methods.has(call.method) || result === undefined) return result;
    const size = JSON.stringify(result).length;
    if (size <= maxChars) return result;
    const cut = truncate ? cutText(result, maxChars, marker) : undefined;
    if (cut !== undefined) return cut as never;
    throw new McpError(
      ErrorCode.InternalError,
      `Response too large: the answer to ${call.method} has ${size} characters, the limit is ${maxChars}`,
      { responseChars: size, maxChars },
    );
  };
}

/** A copy of `result` with text cut to fit `maxChars`, or undefined when cutting cannot make it fit. */
export function cutText(result: unknown, maxChars: number, marker: string): unknown {
  const copy = structuredClone(result);
  const holders: TextHolder[] = [];
  collect(copy, holders, 0);
  let size = JSON.stringify(copy).length;
  // JSON escapes make a character cost more than one: a few passes settle it.
  for (let pass = 0; pass < 4 && size > maxChars; pass += 1) {
    let excess = size - maxChars;
    for (let index = holders.length - 1; index >= 0 && excess > 0; index -= 1) {
      const holder = holders[index]!;
      const body = holder.text.endsWith(marker)
        ? holder.text.slice(0, -marker.length)
        : holder.text;
      const keep = Math.max(0, body.length - excess - (holder.text === body ? marker.length : 0));
      const next = `${body.slice(0, keep)}${marker}`;
      excess -= holder.text.length - next.length;
      holder.text = next;
    }
    size = JSON.stringify(copy).length;
  }
  return size <= maxChars ? copy : undefined;
}

function collect(value: unknown, holders: TextHolder[], depth: number): void {
  if (depth > 64 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) collect(item, holders, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  if (
    typeof record.kind === 'string' &&
    TEXT_KINDS.has(record.kind) &&
    typeof record.text === 'string'
  )
    holders.push(record as unknown as TextHolder);
  for (const key in record) if (key !== 'text') collect(record[key], holders, depth + 1);
}
