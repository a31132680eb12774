import { describe, expect, it } from 'vitest';
import { HELP, parseHostArgs, UsageError } from '@rondo/logtalk-host';

describe('parseHostArgs', () => {
  it('defaults to stdio and takes files in any position', () => {
    expect(parseHostArgs(['a.pl', 'b.lgt'])).toEqual({
      help: false,
      command: 'serve',
      watch: false,
      transport: 'stdio',
      host: '127.0.0.1',
      port: 0,
      files: ['a.pl', 'b.lgt'],
    });
    expect(parseHostArgs(['a.pl', '--transport', 'http', '--port', '8080'])).toMatchObject({
      transport: 'http',
      port: 8080,
      files: ['a.pl'],
    });
  });

  it('reads check FILE..., call FILE TOOL [JSON], --watch, --logtalk-home and --description', () => {
    expect(parseHostArgs(['check', 'a.pl', 'b.lgt'])).toMatchObject({
      command: 'check',
      files: ['a.pl', 'b.lgt'],
    });
    expect(parseHostArgs(['call', 'a.pl', 'add', '{"A":1}'])).toMatchObject({
      command: 'call',
      files: ['a.pl'],
      tool: 'add',
      toolArguments: { A: 1 },
    });
    expect(parseHostArgs(['call', 'a.pl', 'add']).toolArguments).toEqual({});
    expect(
      parseHostArgs(['--watch', '--logtalk-home', '/lt', '--description', 'D', 'a.lgt']),
    ).toMatchObject({ command: 'serve', watch: true, logtalkHome: '/lt', description: 'D' });
    expect(() => parseHostArgs(['call'])).toThrow('call takes FILE, then TOOL');
    expect(() => parseHostArgs(['call', 'a.pl', 't', '{'])).toThrow('not JSON');
    expect(() => parseHostArgs(['--watch', 'check', 'a.pl'])).toThrow('--watch is for serving');
  });

  it('takes `call FILE` without a tool (to list them) and `call --help` as a call for help (issue 29)', () => {
    const listing = parseHostArgs(['call', 'a.pl']);
    expect(listing).toMatchObject({ command: 'call', files: ['a.pl'] });
    expect(listing.tool).toBeUndefined();
    expect(parseHostArgs(['call', '--help'])).toMatchObject({ help: true });
    expect(parseHostArgs(['check', '--help'])).toMatchObject({ help: true });
  });

  it('defaults http to port 3000 and ws to 3001', () => {
    expect(parseHostArgs(['--transport', 'http', 'a.pl']).port).toBe(3000);
    expect(parseHostArgs(['--transport', 'ws', 'a.pl']).port).toBe(3001);
  });

  it('reads the object, workers, timeout in seconds, swipl and name', () => {
    expect(
      parseHostArgs([
        '--object=birds',
        '--workers',
        '3',
        '--timeout',
        '2.5',
        '--swipl',
        '/usr/bin/swipl',
        '--name',
        'birds',
        'birds.pl',
      ]),
    ).toMatchObject({
      object: 'birds',
      workers: 3,
      timeoutSeconds: 2.5,
      swipl: '/usr/bin/swipl',
      name: 'birds',
    });
  });

  it('takes --help without files', () => {
    expect(parseHostArgs(['--help']).help).toBe(true);
    for (const option of ['--transport', '--host', '--port', '--object', '--workers', '--timeout'])
      expect(HELP).toContain(option);
  });

  it.each([
    [['--transport', 'pigeon', 'a.pl'], /unknown transport/],
    [['--port', '70000', 'a.pl'], /--port must be an integer/],
    [['--workers', '0', 'a.pl'], /--workers must be an integer from 1/],
    [['--timeout=-1', 'a.pl'], /--timeout must be a positive number/],
    [['--timeout', 'soon', 'a.pl'], /--timeout must be a positive number/],
    [['--bogus', 'a.pl'], /bogus/],
    [[], /no FILE given/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseHostArgs(argv)).toThrow(message);
  });

  it('takes --allowed-hosts, else RONDO_ALLOWED_HOSTS, and a --state-keys ring', () => {
    const secret = 'a-secret-of-32-bytes-or-more-0123456789';
    expect(
      parseHostArgs([
        '--allowed-hosts',
        'mcp.example.com,localhost',
        '--state-keys',
        `k1:${secret}`,
        'a.pl',
      ]),
    ).toMatchObject({
      allowedHosts: ['mcp.example.com', 'localhost'],
      stateKeys: [{ id: 'k1', secret }],
    });
    expect(parseHostArgs(['a.pl'], { RONDO_ALLOWED_HOSTS: 'any' })).toMatchObject({
      allowedHosts: 'any',
    });
    expect(parseHostArgs(['a.pl'])).not.toHaveProperty('allowedHosts');
    expect(parseHostArgs(['a.pl'], { RONDO_ALLOWED_HOSTS: '' })).not.toHaveProperty('allowedHosts');
    for (const option of [
      '--allowed-hosts',
      '--state-keys',
      'RONDO_STATE_KEYS',
      'RONDO_ALLOWED_HOSTS',
    ])
      expect(HELP).toContain(option);
  });

  it('takes --client-address-header, else RONDO_CLIENT_ADDRESS_HEADER, for http and ws', () => {
    const http = ['--transport', 'http', 'a.pl'];
    expect(parseHostArgs(['--client-address-header', 'X-Real-IP', ...http])).toMatchObject({
      clientAddressHeader: 'x-real-ip',
    });
    expect(
      parseHostArgs(['--transport', 'ws', 'a.pl'], {
        RONDO_CLIENT_ADDRESS_HEADER: 'x-forwarded-for',
      }),
    ).toMatchObject({ clientAddressHeader: 'x-forwarded-for' });
    expect(parseHostArgs(http)).not.toHaveProperty('clientAddressHeader');
    // stdio has one client and no proxy: the variable is left alone, the flag is a mistake.
    expect(
      parseHostArgs(['a.pl'], { RONDO_CLIENT_ADDRESS_HEADER: 'x-forwarded-for' }),
    ).not.toHaveProperty('clientAddressHeader');
    expect(() => parseHostArgs(['--client-address-header', 'x-real-ip', 'a.pl'])).toThrow(
      /--client-address-header needs --transport http or ws/,
    );
    expect(() => parseHostArgs(['--client-address-header', 'a b', ...http])).toThrow(
      /must be an HTTP header name/,
    );
    expect(HELP).toContain('--client-address-header');
    expect(HELP).toContain('RONDO_CLIENT_ADDRESS_HEADER');
  });

  it.each([
    [
      ['--allowed-hosts', '*.example.com', 'a.pl'],
      /--allowed-hosts: "\*.example.com" has a wildcard/,
    ],
    [
      ['--state-keys', 'k1:short', 'a.pl'],
      /--state-keys: the key "k1" is 5 bytes long; a requestState key needs at least 32 bytes/,
    ],
    [['--state-keys', 'no-colon', 'a.pl'], /--state-keys: entry 1 is not id:secret/],
  ])('refuses %j as a usage mistake', (argv, message) => {
    expect(() => parseHostArgs(argv)).toThrow(UsageError);
    expect(() => parseHostArgs(argv)).toThrow(message);
  });
});
