import { describe, expect, it } from 'vitest';
import { parseDemoOptions, USAGE } from '../src/options.js';

const secret = 'a-secret-of-32-bytes-or-more-0123456789';

describe('parseDemoOptions, for running behind a proxy', () => {
  it('takes --allowed-hosts, else RONDO_ALLOWED_HOSTS, and leaves the default rule without either', () => {
    expect(parseDemoOptions(['--allowed-hosts', 'demo.example.test, localhost'], {})).toMatchObject(
      {
        allowedHosts: ['demo.example.test', 'localhost'],
      },
    );
    expect(
      parseDemoOptions(['--allowed-hosts=any'], { RONDO_ALLOWED_HOSTS: 'ignored.test' }),
    ).toMatchObject({ allowedHosts: 'any' });
    expect(parseDemoOptions([], { RONDO_ALLOWED_HOSTS: 'demo.example.test' })).toMatchObject({
      allowedHosts: ['demo.example.test'],
    });
    expect(parseDemoOptions([], {})).not.toHaveProperty('allowedHosts');
    expect(parseDemoOptions([], { RONDO_ALLOWED_HOSTS: '' })).not.toHaveProperty('allowedHosts');
  });

  it('takes a --state-keys ring', () => {
    expect(parseDemoOptions(['--state-keys', `k2:${secret},k1:${secret}!`], {}).stateKeys).toEqual([
      { id: 'k2', secret },
      { id: 'k1', secret: `${secret}!` },
    ]);
  });

  it.each([
    [['--allowed-hosts', '*'], {}, /--allowed-hosts: write any to allow any host/],
    [[], { RONDO_ALLOWED_HOSTS: 'a/b' }, /RONDO_ALLOWED_HOSTS: "a\/b" is not a host/],
    [
      ['--state-keys', 'k1:short'],
      {},
      /--state-keys: the key "k1" is 5 bytes long; a requestState key needs at least 32 bytes/,
    ],
  ])('refuses %j %j', (argv, env, message) => {
    expect(() => parseDemoOptions(argv, env)).toThrow(message);
  });

  it('takes --client-address-header, else RONDO_CLIENT_ADDRESS_HEADER, as a header name', () => {
    expect(parseDemoOptions(['--client-address-header', 'X-Real-IP'], {})).toMatchObject({
      clientAddressHeader: 'x-real-ip',
    });
    expect(
      parseDemoOptions([], { RONDO_CLIENT_ADDRESS_HEADER: 'x-forwarded-for' }).clientAddressHeader,
    ).toBe('x-forwarded-for');
    expect(parseDemoOptions([], {})).not.toHaveProperty('clientAddressHeader');
    expect(() => parseDemoOptions(['--client-address-header', 'x forwarded'], {})).toThrow(
      /--client-address-header must be an HTTP header name/,
    );
  });

  it('lists the flags and variables in --help', () => {
    for (const name of [
      '--client-address-header',
      'RONDO_CLIENT_ADDRESS_HEADER',
      '--allowed-hosts',
      'RONDO_ALLOWED_HOSTS',
      '--state-keys',
      'RONDO_STATE_KEYS',
    ])
      expect(USAGE).toContain(name);
  });
});

describe('parseDemoOptions, for the traffic view', () => {
  it('leaves it to the address by default, and takes --traffic, --no-traffic and RONDO_DEMO_TRAFFIC', () => {
    expect(parseDemoOptions([], {})).not.toHaveProperty('traffic');
    expect(parseDemoOptions(['--traffic'], {}).traffic).toBe(true);
    expect(parseDemoOptions(['--no-traffic'], { RONDO_DEMO_TRAFFIC: '1' }).traffic).toBe(false);
    expect(parseDemoOptions([], { RONDO_DEMO_TRAFFIC: '1' }).traffic).toBe(true);
    expect(parseDemoOptions([], { RONDO_DEMO_TRAFFIC: '0' }).traffic).toBe(false);
    expect(USAGE).toContain('--no-traffic');
  });
});
