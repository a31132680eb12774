import { describe, expect, it } from 'vitest';
import { checkOrigin, type OriginPolicy } from '@rondo/transport-ws';

const open: OriginPolicy = { allowedOrigins: [], allowedHosts: undefined };
const loopback = { localAddress: '127.0.0.1' };

describe('checkOrigin', () => {
  it('allows a request without Origin (a non-browser client)', () => {
    expect(
      checkOrigin({ ...loopback, host: '127.0.0.1:3000', origin: undefined }, open),
    ).toBeUndefined();
  });

  it('allows an Origin naming the same host, default ports included', () => {
    expect(
      checkOrigin({ ...loopback, host: 'localhost:3000', origin: 'http://localhost:3000' }, open),
    ).toBeUndefined();
    expect(
      checkOrigin({ ...loopback, host: 'localhost:80', origin: 'http://localhost' }, open),
    ).toBeUndefined();
  });

  it('refuses another Origin unless it is listed', () => {
    const facts = { ...loopback, host: '127.0.0.1:3000', origin: 'http://localhost:5173' };
    expect(checkOrigin(facts, open)?.status).toBe(403);
    expect(
      checkOrigin(facts, { ...open, allowedOrigins: ['http://LOCALHOST:5173/'] }),
    ).toBeUndefined();
    expect(checkOrigin(facts, { ...open, allowedOrigins: ['*'] })).toBeUndefined();
  });

  it('refuses the opaque null Origin unless any origin is allowed', () => {
    expect(checkOrigin({ ...loopback, host: '127.0.0.1', origin: 'null' }, open)?.status).toBe(403);
  });

  it('refuses a non-loopback Host on a loopback connection (DNS rebinding)', () => {
    expect(
      checkOrigin({ ...loopback, host: 'evil.example.com', origin: undefined }, open)?.reason,
    ).toContain('Host');
    expect(
      checkOrigin({ localAddress: '::ffff:127.0.0.1', host: '[::1]:9', origin: undefined }, open),
    ).toBeUndefined();
  });

  it('does not police Host on a public address unless hosts are listed', () => {
    const facts = { localAddress: '10.0.0.5', host: 'mcp.example.com', origin: undefined };
    expect(checkOrigin(facts, open)).toBeUndefined();
    expect(checkOrigin(facts, { ...open, allowedHosts: ['other.example.com'] })?.status).toBe(403);
    expect(checkOrigin(facts, { ...open, allowedHosts: ['mcp.example.com'] })).toBeUndefined();
  });
});
