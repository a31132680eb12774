import { describe, expect, it } from 'vitest';
import { parseFixtureArgs, USAGE, UsageError } from '@rondo/conformance-fixture';

describe('parseFixtureArgs', () => {
  it('defaults to stdio', () => {
    expect(parseFixtureArgs([])).toEqual({ transport: 'stdio', host: '127.0.0.1', port: 0 });
  });

  it('defaults http to 127.0.0.1:3000 and ws to port 3001', () => {
    expect(parseFixtureArgs(['--transport', 'http'])).toEqual({
      transport: 'http',
      host: '127.0.0.1',
      port: 3000,
    });
    expect(parseFixtureArgs(['--transport', 'ws'])).toMatchObject({ port: 3001 });
  });

  it('takes a port, a host and a path', () => {
    expect(
      parseFixtureArgs(['--transport=http', '--port', '0', '--host', '::1', '--path', '/x']),
    ).toEqual({
      transport: 'http',
      host: '::1',
      port: 0,
      path: '/x',
    });
  });

  it.each([
    [['--transport', 'carrier-pigeon'], /unknown transport/],
    [['--port', 'eighty'], /--port/],
    [['--port', '70000'], /--port/],
    [['--verbose'], /verbose/],
    [['stdio'], /stdio/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseFixtureArgs(argv)).toThrow(message);
  });

  it('takes the allowed hosts from --allowed-hosts, else RONDO_ALLOWED_HOSTS', () => {
    const env = { RONDO_ALLOWED_HOSTS: 'from-env.test' };
    expect(parseFixtureArgs(['--allowed-hosts', 'a.test, b.test:8443'], env)).toMatchObject({
      allowedHosts: ['a.test', 'b.test:8443'],
    });
    expect(parseFixtureArgs([], env)).toMatchObject({ allowedHosts: ['from-env.test'] });
    expect(parseFixtureArgs(['--allowed-hosts=any'])).toMatchObject({ allowedHosts: 'any' });
    expect(parseFixtureArgs([])).not.toHaveProperty('allowedHosts');
    expect(parseFixtureArgs([], { RONDO_ALLOWED_HOSTS: '' })).not.toHaveProperty('allowedHosts');
  });

  it('takes --help, whose usage names every flag and variable', () => {
    expect(parseFixtureArgs(['--help']).help).toBe(true);
    expect(parseFixtureArgs([])).not.toHaveProperty('help');
    for (const name of [
      '--allowed-hosts',
      'RONDO_ALLOWED_HOSTS',
      '--state-keys',
      'RONDO_STATE_KEYS',
    ])
      expect(USAGE).toContain(name);
  });

  it('takes a key ring from --state-keys', () => {
    const secret = 's'.repeat(32);
    expect(parseFixtureArgs(['--state-keys', `k2:${secret},k1:${secret}x`]).stateKeys).toEqual([
      { id: 'k2', secret },
      { id: 'k1', secret: `${secret}x` },
    ]);
  });

  it.each([
    [['--allowed-hosts', 'http://x.test'], /--allowed-hosts: "http:\/\/x.test" is not a host/],
    [['--allowed-hosts', ''], /--allowed-hosts: no host given/],
    [
      ['--state-keys', 'k1:short'],
      /--state-keys: the key "k1" is 5 bytes long; a requestState key needs at least 32 bytes/,
    ],
  ])('refuses %j as a usage mistake', (argv, message) => {
    expect(() => parseFixtureArgs(argv)).toThrow(UsageError);
    expect(() => parseFixtureArgs(argv)).toThrow(message);
  });

  it('names RONDO_ALLOWED_HOSTS when the variable is wrong', () => {
    expect(() => parseFixtureArgs([], { RONDO_ALLOWED_HOSTS: '*' })).toThrow(
      /RONDO_ALLOWED_HOSTS: write any to allow any host/,
    );
  });
});
