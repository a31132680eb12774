import { describe, expect, it } from 'vitest';
import { ErrorCode, McpError, isMcpError } from '../src/index.js';

describe('ErrorCode', () => {
  it('uses the codes of the spec', () => {
    expect(ErrorCode).toEqual({
      ParseError: -32700,
      InvalidRequest: -32600,
      MethodNotFound: -32601,
      InvalidParams: -32602,
      InternalError: -32603,
      ResourceNotFound: -32002,
      UrlElicitationRequired: -32042,
      HeaderMismatch: -32020,
      MissingClientCapability: -32021,
      UnsupportedProtocolVersion: -32022,
    });
  });
});

describe('McpError', () => {
  it('is an Error carrying its code', () => {
    const error = new McpError(ErrorCode.InvalidParams, 'Unknown tool: nope');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('McpError');
    expect(error.code).toBe(-32602);
    expect(error.message).toBe('Unknown tool: nope');
  });

  it('serialises to a JSON-RPC error object without data when it has none', () => {
    const json = new McpError(ErrorCode.MethodNotFound, 'Method not found').toJson();
    expect(json).toStrictEqual({ code: -32601, message: 'Method not found' });
    expect('data' in json).toBe(false);
  });

  it('serialises its data, even a falsy one', () => {
    const data = { supported: ['2026-07-28'], requested: '1900-01-01' };
    expect(
      new McpError(ErrorCode.UnsupportedProtocolVersion, 'Unsupported', data).toJson(),
    ).toEqual({
      code: -32022,
      message: 'Unsupported',
      data,
    });
    expect(new McpError(1, 'm', null).toJson()).toStrictEqual({
      code: 1,
      message: 'm',
      data: null,
    });
    expect(new McpError(1, 'm', 0).toJson()).toStrictEqual({ code: 1, message: 'm', data: 0 });
  });
});

describe('isMcpError', () => {
  it('recognises an McpError', () => {
    expect(isMcpError(new McpError(-32603, 'x'))).toBe(true);
  });

  it('recognises an McpError from another copy of the package by name and numeric code', () => {
    const foreign = Object.assign(new Error('x'), { name: 'McpError', code: -32602 });
    expect(isMcpError(foreign)).toBe(true);
  });

  it.each([
    ['a plain Error', new Error('x')],
    [
      'an Error named McpError without a numeric code',
      Object.assign(new Error('x'), { name: 'McpError', code: '1' }),
    ],
    ['a plain object shaped like one', { name: 'McpError', code: 1, message: 'x' }],
    ['null', null],
    ['a string', 'McpError'],
  ])('refuses %s', (_what, value) => {
    expect(isMcpError(value)).toBe(false);
  });
});
