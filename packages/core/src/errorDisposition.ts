import { ErrorCode } from '@rondo/protocol';
import type { Disposition } from './contracts/transport.js';

/**
 * The error codes that say a request was refused as sent (HTTP 400 on the 2026-07-28 wire): a
 * header that contradicts the body, a client capability it needs and did not declare, a revision
 * not served, a malformed request.
 */
const REFUSAL_CODES: ReadonlySet<number> = new Set([
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
  ErrorCode.InvalidRequest,
  ErrorCode.ParseError,
]);

/**
 * What a 2026-07-28 error answer says became of its request, for the transport's status: an
 * unknown method (`unknown`, 404), a refusal (`refused`, 400), else `undefined` (an ordinary
 * answer). Shared by the modern era and by whatever answers for it, a gateway passing an
 * upstream's error through, so both give one error one status.
 */
export function modernErrorDisposition(code: number): Disposition | undefined {
  if (code === ErrorCode.MethodNotFound) return 'unknown';
  return REFUSAL_CODES.has(code) ? 'refused' : undefined;
}
