import { ErrorCode, McpError } from '@rondo/protocol';
import { base64UrlToText, textToBase64Url } from './base64.js';

/** One page of a list, and the cursor of the next page when there is one. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** How a page is bounded in bytes: its most, and the size of one item. */
export interface PageBytes<T> {
  readonly max: number;
  sizeOf(item: T): number;
}

/**
 * Cuts a list into pages of `pageSize` items, and, with `bytes`, of at most `bytes.max` bytes (one
 * item at least). Cursors are opaque to clients (base64url of the offset); a cursor that does not
 * decode to an offset inside the list is -32602.
 */
export function paginate<T>(
  items: readonly T[],
  cursor: unknown,
  pageSize: number,
  bytes?: PageBytes<T>,
): Page<T> {
  const start = cursor === undefined ? 0 : decodeCursor(cursor, items.length);
  let end = Math.min(start + pageSize, items.length);
  if (bytes) {
    let used = 0;
    for (let index = start; index < end; index += 1) {
      used += bytes.sizeOf(items[index]!);
      if (used > bytes.max && index > start) {
        end = index;
        break;
      }
    }
  }
  const page: Page<T> = { items: items.slice(start, end) };
  if (end < items.length) page.nextCursor = textToBase64Url(`o:${end}`);
  return page;
}

function decodeCursor(cursor: unknown, length: number): number {
  if (typeof cursor === 'string') {
    const match = /^o:(\d+)$/.exec(decodeOrEmpty(cursor));
    const offset = match ? Number(match[1]) : NaN;
    if (Number.isSafeInteger(offset) && offset <= length) return offset;
  }
  throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor');
}

function decodeOrEmpty(cursor: string): string {
  try {
    return base64UrlToText(cursor);
  } catch {
    return '';
  }
}
