import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../src/config.js';
import { parseGatewayArgs, UsageError } from '../src/cliArgs.js';
import { proxyOptions } from '../src/gateway.js';

const read = (mcpServers: unknown) =>
  parseConfig(JSON.stringify({ mcpServers }), 'servers.json', '/etc/mcp');

describe('the gateway configuration', () => {
  it('reads stdio, remote and prolog entries with their Rondo keys and defaults', () => {
    const entries = read({
      'my files': { command: 'npx', args: ['-y', 'server-filesystem'], cwd: 'work', type: 'stdio' },
      remote: {
        url: 'https://example.com/mcp',
        headers: { Authorization: 'Bearer x' },
        namespace: '',
      },
      birds: { prolog: 'birds.pl', include: ['identify_*'], timeoutMs: 5000 },
      off: { command: 'x', disabled: true },
    });
    expect(entries.map((e) => [e.key, e.kind, e.namespace])).toEqual([
      ['my files', 'stdio', 'my_files'],
      ['remote', 'remote', ''],
      ['birds', 'prolog', 'birds'],
    ]);
    expect(entries[0]).toMatchObject({ cwd: '/etc/mcp/work', args: ['-y', 'server-filesystem'] });
    // Without cwd a stdio entry runs in the configuration's folder: relative args are read there.
    const [plain] = read({ local: { command: 'node', args: ['server.js'] } });
    expect(plain).toMatchObject({ cwd: '/etc/mcp', args: ['server.js'] });
    expect(entries[2]).toMatchObject({
      files: ['/etc/mcp/birds.pl'],
      include: ['identify_*'],
      timeoutMs: 5000,
    });
  });

  it("passes an entry's tag filters to its proxy, and refuses tags that are not strings", () => {
    const [entry] = read({ py: { command: 'uvx', includeTags: ['read'], excludeTags: ['admin'] } });
    expect(proxyOptions(entry!)).toMatchObject({ includeTags: ['read'], excludeTags: ['admin'] });
    expect(() => read({ py: { command: 'uvx', includeTags: 'read' } })).toThrow(
      /mcpServers\.py: includeTags: /,
    );
  });

  it('reads an oauth member of a remote entry and refuses one it could not log in with', () => {
    const url = 'https://example.com/mcp';
    const issuer = 'https://auth.example.com';
    const [entry] = read({ api: { url, oauth: { clientId: 'gw', issuer, clientSecret: 's3' } } });
    expect(entry).toMatchObject({
      kind: 'remote',
      oauth: { clientId: 'gw', issuer, clientSecret: 's3' },
    });
    expect(() => read({ api: { url, oauth: { clientId: 'gw', issuer } } })).toThrow(
      /mcpServers\.api: oauth: give one of clientSecret and clientSecretEnv/,
    );
    expect(() =>
      read({
        api: { url, oauth: { clientId: 'gw', issuer, clientSecret: 'a', clientSecretEnv: 'B' } },
      }),
    ).toThrow(/give one of clientSecret and clientSecretEnv/);
    expect(() =>
      read({
        api: { url, oauth: { clientId: 'gw', issuer, clientSecretEnv: 'RONDO_TEST_UNSET_SECRET' } },
      }),
    ).toThrow(/mcpServers\.api: oauth\.clientSecretEnv: RONDO_TEST_UNSET_SECRET is not set/);
    expect(() =>
      read({
        ws: { url: 'wss://example.com/ws', oauth: { clientId: 'gw', issuer, clientSecret: 's' } },
      }),
    ).toThrow(/mcpServers\.ws: oauth: needs an http\(s\) url/);
    expect(() =>
      read({
        api: { url, oauth: { clientId: 'gw', issuer, clientSecret: 's', grant: 'password' } },
      }),
    ).toThrow(/mcpServers\.api: oauth: /);
  });

  // Issue 40: an oauth member may act for each caller (token exchange); it never shares sessions.
  it('reads oauth.tokenExchange and refuses it on an entry sharing sessions between callers', () => {
    const url = 'https://example.com/mcp';
    const oauth = { clientId: 'gw', issuer: 'https://auth.example.com', clientSecret: 's3' };
    const [entry] = read({ api: { url, oauth: { ...oauth, tokenExchange: true } } });
    expect(entry).toMatchObject({ kind: 'remote', oauth: { ...oauth, tokenExchange: true } });
    const [plain] = read({ api: { url, oauth } });
    expect(plain).not.toHaveProperty('oauth.tokenExchange');
    for (const isolation of ['shared', 'session']) {
      expect(() =>
        read({ api: { url, isolation, oauth: { ...oauth, tokenExchange: true } } }),
      ).toThrow(/mcpServers\.api: isolation: an entry with oauth\.tokenExchange runs each caller/);
    }
    const [own] = read({
      api: { url, isolation: 'principal', oauth: { ...oauth, tokenExchange: true } },
    });
    expect(own).toMatchObject({ isolation: 'principal' });
    expect(() => read({ api: { url, oauth: { ...oauth, tokenExchange: 'yes' } } })).toThrow(
      /mcpServers\.api: oauth\.tokenExchange: /,
    );
  });

  // Issue 38, done-when 5: what would collide whatever the upstreams list is refused at load.
  it('refuses two entries with one namespace, or one shown name renamed by two, naming both', () => {
    expect(() =>
      read({ a: { command: 'x', namespace: 'm' }, b: { command: 'y', namespace: 'm' } }),
    ).toThrow(
      'servers.json: mcpServers.a and mcpServers.b have the same namespace "m"; give each its own',
    );
    // An entry's key is its namespace by default.
    expect(() => read({ m: { command: 'x' }, b: { command: 'y', namespace: 'm' } })).toThrow(
      /mcpServers\.m and mcpServers\.b have the same namespace "m"/,
    );
    expect(() =>
      read({
        a: { command: 'x', rename: { search: 'find' } },
        b: { command: 'y', rename: { lookup: 'find' } },
      }),
    ).toThrow('servers.json: mcpServers.a and mcpServers.b both rename something to "find"');
    // Entries without a namespace are told apart by what they list (see the proxy's CatalogClaims).
    expect(
      read({ a: { command: 'x', namespace: '' }, b: { command: 'y', namespace: '' } }),
    ).toHaveLength(2);
  });

  // Issue 38, done-when 3: the client credentials go to the entry's issuer only, over https.
  it('requires the issuer of an oauth member, https unless on a loopback host', () => {
    const url = 'https://example.com/mcp';
    expect(() => read({ api: { url, oauth: { clientId: 'gw', clientSecret: 's' } } })).toThrow(
      /mcpServers\.api: oauth\.issuer: /,
    );
    expect(() =>
      read({
        api: {
          url,
          oauth: { clientId: 'gw', issuer: 'http://auth.example.com', clientSecret: 's' },
        },
      }),
    ).toThrow(
      /mcpServers\.api: oauth\.issuer: must be an https URL \(http only on a loopback host\)/,
    );
    const [local] = read({
      api: { url, oauth: { clientId: 'gw', issuer: 'http://127.0.0.1:8080', clientSecret: 's' } },
    });
    expect(local).toMatchObject({ oauth: { issuer: 'http://127.0.0.1:8080' } });
  });

  it('names the entry and the member at fault', () => {
    expect(() => read({ bad: { args: [] } })).toThrow(
      new ConfigError(
        'servers.json: mcpServers.bad: command: Invalid input: expected string, received undefined (an entry needs command, url, prolog or openapi)',
      ),
    );
    expect(() => read({ web: { url: 'ftp://x' } })).toThrow(/mcpServers\.web: url: /);
    expect(() => read({ x: { command: 'a', namespace: 'has space' } })).toThrow(
      /namespace: letters, digits/,
    );
    expect(() => read({ x: { command: 'a', era: '2024-01-01' } })).toThrow(/mcpServers\.x: era: /);
    expect(() => parseConfig('{', 'c.json', '/')).toThrow(/^c\.json:1:2: not JSON: /);
    expect(() => parseConfig('{"mcpServer":{}}', 'c.json', '/')).toThrow(
      /^c\.json: no mcpServers .*\(did you mean "mcpServers"\?\)$/,
    );
    expect(() => read({ off: { command: 'x', disabled: true } })).toThrow(/no enabled entry/);
  });
});

describe('the gateway command line', () => {
  it('reads the shared serving flags, the command and the configuration', () => {
    expect(parseGatewayArgs(['--transport', 'http', '--port', '0', 'servers.json'])).toMatchObject({
      command: 'serve',
      transport: 'http',
      host: '127.0.0.1',
      port: 0,
      config: 'servers.json',
    });
    expect(parseGatewayArgs(['check', 'servers.json'])).toMatchObject({
      command: 'check',
      port: 0,
    });
    expect(parseGatewayArgs(['x.json'], { RONDO_REDIS_URL: 'redis://r:6379' })).toMatchObject({
      redis: 'redis://r:6379',
      transport: 'stdio',
    });
  });

  it('reads --webhooks (on by default; RONDO_EVENTS_ALLOW_PRIVATE_CALLBACKS=1 says private)', () => {
    expect(parseGatewayArgs(['x.json']).webhooks).toBe('on');
    expect(parseGatewayArgs(['--webhooks', 'off', 'x.json']).webhooks).toBe('off');
    const allowed = { RONDO_EVENTS_ALLOW_PRIVATE_CALLBACKS: '1' };
    expect(parseGatewayArgs(['x.json'], allowed).webhooks).toBe('private');
    // An operator's `off` stands whatever the environment says.
    expect(parseGatewayArgs(['--webhooks', 'off', 'x.json'], allowed).webhooks).toBe('off');
    expect(() => parseGatewayArgs(['--webhooks', 'maybe', 'x.json'])).toThrow(
      new UsageError('--webhooks must be on or off or private, got "maybe"'),
    );
  });

  it('refuses mistakes as usage errors', () => {
    expect(() => parseGatewayArgs([])).toThrow(new UsageError('no CONFIG.json given'));
    expect(() => parseGatewayArgs(['--transport', 'udp', 'x.json'])).toThrow(
      /unknown transport "udp"/,
    );
    expect(() => parseGatewayArgs(['--port', '70000', 'x.json'])).toThrow(
      /--port must be an integer/,
    );
    expect(() => parseGatewayArgs(['--state-keys', 'k:short', 'x.json'])).toThrow(UsageError);
    expect(() => parseGatewayArgs(['--nope', 'x.json'])).toThrow(UsageError);
  });

  it('takes --auth-* (or RONDO_AUTH_*) for http and ws, and refuses them on stdio', () => {
    const env = { RONDO_AUTH_ISSUER: 'https://sso.example.com' };
    const args = parseGatewayArgs(
      [
        '--transport',
        'http',
        '--auth-resource',
        'https://mcp.example.com/mcp',
        '--auth-jwks',
        'https://sso.example.com/certs',
        'x.json',
      ],
      env,
    );
    expect(args.auth).toEqual({
      resource: 'https://mcp.example.com/mcp',
      issuer: 'https://sso.example.com',
      verifier: { kind: 'jwks', jwksUrl: 'https://sso.example.com/certs' },
      requiredScopes: [],
    });
    expect(parseGatewayArgs(['--transport', 'ws', 'x.json']).auth).toBeUndefined();
    expect(() =>
      parseGatewayArgs(['--transport', 'http', '--auth-jwks', 'https://sso/c', 'x.json']),
    ).toThrow(new UsageError('authorization needs --auth-resource (RONDO_AUTH_RESOURCE)'));
    expect(() =>
      parseGatewayArgs(['x.json'], {
        ...env,
        RONDO_AUTH_RESOURCE: 'https://mcp.example.com/mcp',
        RONDO_AUTH_JWKS: 'https://sso.example.com/certs',
      }),
    ).toThrow('--auth-* needs --transport http or ws: stdio carries no bearer token');
  });
});
