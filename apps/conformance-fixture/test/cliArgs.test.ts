import { describe, expect, it } from 'vitest';
import { parseFixtureArgs } from '@rondo/conformance-fixture';

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
});
