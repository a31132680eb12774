import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';

// Issue 45: the gateway's `openapi` entry as read from the configuration.

const parse = (entry: object) =>
  parseConfig(JSON.stringify({ mcpServers: { pets: entry } }), 'servers.json', '/etc/rondo');

describe('an openapi entry', () => {
  it('resolves a relative document path and reads secrets from the environment', () => {
    process.env.OPENAPI_ENTRY_TEST_SECRET = 'from-env';
    const [entry] = parse({
      openapi: 'specs/pets.json',
      baseUrl: 'http://127.0.0.1:9/v2',
      auth: {
        api_key: { apiKeyEnv: 'OPENAPI_ENTRY_TEST_SECRET' },
        oauth: { clientId: 'svc', clientSecret: 'x', scope: 'read' },
      },
      includePaths: ['/pet/*'],
    });
    expect(entry).toMatchObject({
      kind: 'openapi',
      namespace: 'pets',
      openapi: '/etc/rondo/specs/pets.json',
      credentials: {
        api_key: { apiKey: 'from-env' },
        oauth: { clientId: 'svc', clientSecret: 'x', scope: 'read' },
      },
      includePaths: ['/pet/*'],
    });
    expect(parse({ openapi: 'https://api.example.com/openapi.json' })[0]).toMatchObject({
      openapi: 'https://api.example.com/openapi.json',
    });
  });

  it('refuses credentials it cannot use, naming the entry and the scheme', () => {
    expect(() =>
      parse({ openapi: 'a.json', auth: { key: { apiKeyEnv: 'OPENAPI_ENTRY_TEST_UNSET' } } }),
    ).toThrow(
      'servers.json: mcpServers.pets: auth.key.apiKeyEnv: OPENAPI_ENTRY_TEST_UNSET is not set',
    );
    expect(() => parse({ openapi: 'a.json', auth: { key: { scope: 'x' } } })).toThrow(
      /mcpServers\.pets: auth\.key: give apiKey, token/,
    );
    expect(() => parse({ openapi: 'a.json', baseUrl: 'ftp://x' })).toThrow(
      /mcpServers\.pets: baseUrl/,
    );
    expect(() => parse({ namespace: 'x' })).toThrow(
      '(an entry needs command, url, prolog or openapi)',
    );
  });
});
