import { describe, expect, it } from 'vitest';
import { ConfigurationError, checkIpv6Prefix, clientKeyOfAddress } from '../src/index.js';

describe('clientKeyOfAddress (issue 39)', () => {
  it('keys an IPv6 address by its /64, and IPv4 (mapped ones too) by the address', () => {
    expect(clientKeyOfAddress('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOfAddress('2001:db8:1:2:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOfAddress('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientKeyOfAddress('fe80::1%eth0')).toBe('fe80::/64');
    expect(clientKeyOfAddress('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(clientKeyOfAddress('10.0.0.1')).toBe('10.0.0.1');
  });

  it('takes another prefix, and keeps what is no address as it is', () => {
    expect(clientKeyOfAddress('2001:db8:1:2::1', 128)).toBe('2001:db8:1:2::1/128');
    expect(clientKeyOfAddress('2001:db8:1:2::1', 48)).toBe('2001:db8:1::/48');
    expect(clientKeyOfAddress('2001:db8:1:2::1', 61)).toBe('2001:db8:1::/61');
    expect(clientKeyOfAddress('/run/mcp.sock')).toBe('/run/mcp.sock');
    expect(clientKeyOfAddress('')).toBe('');
  });

  it('refuses a prefix that is not 1 to 128 bits', () => {
    expect(checkIpv6Prefix(undefined, 'ipv6ClientPrefix')).toBe(64);
    for (const bad of [0, 129, 64.5, Number.NaN])
      expect(() => checkIpv6Prefix(bad, 'ipv6ClientPrefix')).toThrow(ConfigurationError);
  });
});
