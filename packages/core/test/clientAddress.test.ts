import { describe, expect, it } from 'vitest';
import { clientAddress } from '../src/index.js';

describe('clientAddress', () => {
  it("is the connection's peer without a proxy header", () => {
    expect(clientAddress({ 'x-forwarded-for': '10.0.0.1' }, '127.0.0.1', undefined)).toBe(
      '127.0.0.1',
    );
  });

  it('is the last entry of the named header, the one the proxy appended', () => {
    const headers = { 'x-forwarded-for': 'spoofed, 198.51.100.7 ' };
    expect(clientAddress(headers, '127.0.0.1', 'X-Forwarded-For')).toBe('198.51.100.7');
  });

  it('reads several header lines as one list', () => {
    const headers = { 'x-real-ip': ['spoofed', '198.51.100.8'] };
    expect(clientAddress(headers, '127.0.0.1', 'x-real-ip')).toBe('198.51.100.8');
  });

  it('falls back to the peer when the header is absent or empty, and is empty knowing neither', () => {
    expect(clientAddress({}, '127.0.0.1', 'x-forwarded-for')).toBe('127.0.0.1');
    expect(clientAddress({ 'x-forwarded-for': ' ' }, '::1', 'x-forwarded-for')).toBe('::1');
    expect(clientAddress({}, undefined, 'x-forwarded-for')).toBe('');
  });
});
