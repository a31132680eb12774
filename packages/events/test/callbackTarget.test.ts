import { describe, expect, it } from 'vitest';
import { resolveCallback, type HostResolver } from '../src/callbackTarget.js';

// The SSRF rule of webhook callbacks: every address a host resolves to must be public, and the
// address checked is the one deliveries connect to.

const resolving =
  (...addresses: string[]): HostResolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const);

describe('resolveCallback', () => {
  it('takes a public host and answers the address it checked', async () => {
    const target = await resolveCallback(
      'https://hooks.example/x',
      false,
      resolving('93.184.216.34'),
    );
    expect(target.address).toEqual({ address: '93.184.216.34', family: 4 });
    expect(target.url.hostname).toBe('hooks.example');
  });

  it('refuses a host when any one of its addresses is not public', async () => {
    for (const addresses of [
      ['93.184.216.34', '127.0.0.1'],
      ['2606:4700::1', 'fd00::1'],
      ['100.64.0.1'],
      ['0.0.0.0'],
      ['::ffff:10.0.0.1'],
    ])
      await expect(
        resolveCallback('https://hooks.example/x', false, resolving(...addresses)),
        addresses.join(','),
      ).rejects.toMatchObject({ reason: 'private-address' });
  });

  it('takes private addresses only when allowed, and https only either way', async () => {
    const target = await resolveCallback('https://127.0.0.1:8443/x', true);
    expect(target.address).toEqual({ address: '127.0.0.1', family: 4 });
    await expect(resolveCallback('http://127.0.0.1/x', true)).rejects.toMatchObject({
      reason: 'not-https',
    });
    await expect(resolveCallback('https://u:p@hooks.example/x', true)).rejects.toMatchObject({
      reason: 'bad-url',
    });
    await expect(
      resolveCallback('https://nowhere.example/x', false, resolving()),
    ).rejects.toMatchObject({ reason: 'unresolved' });
  });
});
