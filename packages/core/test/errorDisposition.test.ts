import { ErrorCode } from '@rondo/protocol';
import { describe, expect, it } from 'vitest';
import { modernErrorDisposition } from '../src/index.js';

describe('modernErrorDisposition', () => {
  it('says an unknown method is unknown and a refused request is refused', () => {
    expect(modernErrorDisposition(ErrorCode.MethodNotFound)).toBe('unknown');
    for (const code of [
      ErrorCode.MissingClientCapability,
      ErrorCode.HeaderMismatch,
      ErrorCode.UnsupportedProtocolVersion,
      ErrorCode.InvalidRequest,
      ErrorCode.ParseError,
    ])
      expect(modernErrorDisposition(code), String(code)).toBe('refused');
  });

  it('leaves any other error an ordinary answer', () => {
    expect(modernErrorDisposition(ErrorCode.InvalidParams)).toBeUndefined();
    expect(modernErrorDisposition(ErrorCode.InternalError)).toBeUndefined();
  });
});
