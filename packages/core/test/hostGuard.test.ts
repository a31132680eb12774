import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  checkHostAndOrigin,
  parseAllowedHosts,
  resolveHostGuard,
  type HostGuardFacts,
  type HostGuardOptions,
} from '@rondo/core';

const LOOPBACK = '127.0.0.1';
const PUBLIC = '10.0.0.5';

function verdict(facts: Partial<HostGuardFacts>, options: HostGuardOptions = {}) {
  return checkHostAndOrigin(
    { host: undefined, origin: undefined, localAddress: LOOPBACK, ...facts },
    resolveHostGuard(options),
  );
}

const allowed = { ok: true };
const refused = (status: number) => expect.objectContaining({ ok: false, status });

describe('checkHostAndOrigin on a loopback connection, by default', () => {
  it.each([
    'localhost:3000',
    '127.0.0.1:3000',
    '[::1]:3000',
    'localhost',
    '127.0.0.2:1',
    'LOCALHOST',
  ])('accepts the loopback Host %s on any port', (host) =>
    expect(verdict({ host })).toEqual(allowed),
  );

  it('accepts loopback Hosts however an address is spelled', () => {
    expect(verdict({ host: '[0:0:0:0:0:0:0:1]:80' })).toEqual(allowed);
    expect(verdict({ host: '[::ffff:127.0.0.1]' })).toEqual(allowed);
  });

  it('refuses a DNS name (the rebinding attack) and a non-loopback address with 403', () => {
    expect(verdict({ host: 'evil.example.com:3000' })).toEqual(refused(403));
    expect(verdict({ host: 'localhost.evil.example.com' })).toEqual(refused(403));
    expect(verdict({ host: '192.168.1.5:3000' })).toEqual(refused(403));
  });

  it('names the refused Host in the reason', () => {
    expect(verdict({ host: 'evil.example.com' })).toMatchObject({
      reason: 'Host "evil.example.com" is not allowed',
    });
  });

  it('refuses a missing or malformed Host with 400', () => {
    expect(verdict({ host: undefined })).toEqual(refused(400));
    expect(verdict({ host: '' })).toEqual(refused(400));
    for (const host of [
      'localhost:99999',
      'user@localhost',
      'localhost/x',
      'local host',
      'a:b:c',
    ]) {
      expect(verdict({ host })).toEqual(refused(400));
    }
  });

  it('treats a connection of unknown local address as a loopback one', () => {
    expect(verdict({ host: '10.0.0.5', localAddress: undefined })).toEqual(refused(403));
  });
});

describe('checkHostAndOrigin on a connection to another interface, by default', () => {
  it('accepts Hosts that name an address: localhost or an IP literal', () => {
    for (const host of ['10.0.0.5:3000', '192.168.1.9', '[2001:db8::1]:8080', 'localhost:3000']) {
      expect(verdict({ host, localAddress: PUBLIC })).toEqual(allowed);
    }
    expect(verdict({ host: '10.0.0.5', localAddress: '::ffff:10.0.0.5' })).toEqual(allowed);
  });

  it('refuses a DNS name, which only allowedHosts can vouch for', () => {
    expect(verdict({ host: 'mcp.example.com', localAddress: PUBLIC })).toEqual(refused(403));
    expect(
      verdict(
        { host: 'mcp.example.com', localAddress: PUBLIC },
        { allowedHosts: ['mcp.example.com'] },
      ),
    ).toEqual(allowed);
  });
});

describe('allowedHosts', () => {
  it('accepts a listed name on any port, and a listed name:port on that port only', () => {
    const options = { allowedHosts: ['mcp.example.com', 'api.example.com:8443'] };
    expect(verdict({ host: 'MCP.example.com:1' }, options)).toEqual(allowed);
    expect(verdict({ host: 'api.example.com:8443' }, options)).toEqual(allowed);
    expect(verdict({ host: 'api.example.com:443' }, options)).toEqual(refused(403));
    expect(verdict({ host: 'api.example.com' }, options)).toEqual(refused(403));
  });

  it('replaces the default rule rather than adding to it', () => {
    expect(verdict({ host: '127.0.0.1:3000' }, { allowedHosts: ['mcp.example.com'] })).toEqual(
      refused(403),
    );
  });

  it("turns the Host check off with 'any', missing Host included", () => {
    expect(verdict({ host: 'evil.example.com' }, { allowedHosts: 'any' })).toEqual(allowed);
    expect(verdict({ host: undefined }, { allowedHosts: 'any' })).toEqual(allowed);
  });
});

describe('the Origin check', () => {
  const host = '127.0.0.1:3000';

  it('lets a request without Origin (a non-browser client) pass', () => {
    expect(verdict({ host })).toEqual(allowed);
  });

  it("accepts the server's own origin, default ports compared as URLs do", () => {
    expect(verdict({ host, origin: 'http://127.0.0.1:3000' })).toEqual(allowed);
    expect(verdict({ host: 'localhost:80', origin: 'http://localhost' })).toEqual(allowed);
    expect(verdict({ host: 'localhost', origin: 'http://localhost:80' })).toEqual(allowed);
    expect(
      verdict(
        { host: 'mcp.example.com', origin: 'https://mcp.example.com', localAddress: PUBLIC },
        { allowedHosts: ['mcp.example.com'] },
      ),
    ).toEqual(allowed);
  });

  it('refuses any other origin with 403, loopback ones included', () => {
    for (const origin of [
      'http://localhost:3000',
      'http://127.0.0.1:5173',
      'http://evil.example.com',
    ]) {
      expect(verdict({ host, origin })).toEqual(refused(403));
    }
    expect(verdict({ host, origin: 'http://evil.example.com' })).toMatchObject({
      reason: 'Origin "http://evil.example.com" is not allowed',
    });
  });

  it('refuses the opaque origin null and an unreadable one', () => {
    expect(verdict({ host, origin: 'null' })).toEqual(refused(403));
    expect(verdict({ host, origin: 'not an origin' })).toEqual(refused(403));
  });

  it('accepts a listed origin, compared after normalising both', () => {
    const options = { allowedOrigins: ['http://LOCALHOST:5173/', 'chrome-extension://abcdef'] };
    expect(verdict({ host, origin: 'http://localhost:5173' }, options)).toEqual(allowed);
    expect(verdict({ host, origin: 'chrome-extension://abcdef' }, options)).toEqual(allowed);
    expect(verdict({ host, origin: 'http://localhost:5174' }, options)).toEqual(refused(403));
  });

  it("accepts every origin with 'any', which does not open the Host check", () => {
    const options = { allowedOrigins: 'any' } as const;
    expect(verdict({ host, origin: 'null' }, options)).toEqual(allowed);
    expect(verdict({ host: 'evil.example.com', origin: 'http://x' }, options)).toEqual(
      refused(403),
    );
  });

  it('checks Host before Origin', () => {
    expect(verdict({ host: 'evil.example.com', origin: 'http://evil.example.com' })).toMatchObject({
      status: 403,
      reason: 'Host "evil.example.com" is not allowed',
    });
  });
});

describe('resolveHostGuard', () => {
  it("refuses '*' and wildcards, naming the one spelling of allow-any", () => {
    expect(() => resolveHostGuard({ allowedOrigins: ['*'] })).toThrow(/allowedOrigins: 'any'/);
    expect(() => resolveHostGuard({ allowedHosts: ['*'] })).toThrow(/allowedHosts: 'any'/);
    expect(() => resolveHostGuard({ allowedHosts: ['*.example.com'] })).toThrow(ConfigurationError);
  });

  it('refuses entries that could never match', () => {
    expect(() => resolveHostGuard({ allowedHosts: ['http://mcp.example.com'] })).toThrow(
      ConfigurationError,
    );
    expect(() => resolveHostGuard({ allowedOrigins: ['mcp.example.com'] })).toThrow(
      ConfigurationError,
    );
    expect(() => resolveHostGuard({ allowedOrigins: ['null'] })).toThrow(ConfigurationError);
  });
});

describe('parseAllowedHosts', () => {
  it('reads a comma-separated list, space around entries dropped, and the word any', () => {
    expect(parseAllowedHosts(' mcp.example.com, localhost:3000 ,')).toEqual([
      'mcp.example.com',
      'localhost:3000',
    ]);
    expect(parseAllowedHosts('any')).toBe('any');
    const policy = resolveHostGuard({ allowedHosts: parseAllowedHosts('mcp.example.com') });
    expect(
      checkHostAndOrigin(
        { host: 'mcp.example.com', origin: undefined, localAddress: LOOPBACK },
        policy,
      ),
    ).toEqual(allowed);
  });

  it('refuses, naming its source, what resolveHostGuard would refuse, an empty list and any in a list', () => {
    const cases: [string, RegExp][] = [
      ['', /--allowed-hosts: no host given/],
      ['mcp.example.com,http://x', /--allowed-hosts: "http:\/\/x" is not a host or host:port/],
      ['*', /--allowed-hosts: write any to allow any host/],
      ['*.example.com', /--allowed-hosts: "\*.example.com" has a wildcard/],
      ['any,localhost', /--allowed-hosts: any stands alone/],
    ];
    for (const [text, message] of cases) {
      expect(() => parseAllowedHosts(text, '--allowed-hosts')).toThrow(ConfigurationError);
      expect(() => parseAllowedHosts(text, '--allowed-hosts')).toThrow(message);
    }
  });
});
