import { runtimeOf } from '@rondo/core/internal';
import { once } from 'node:events';
import { createServer as createNetServer } from 'node:net';
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { ConfigurationError, createEndpoint } from '@rondo/core';
import { serve } from '@rondo/server';
import { greeterServer } from './support/clients.js';

const portOf = (url: string): number => Number(new URL(url).port);

describe('serve(server): the handle closes what the facade composed', () => {
  it.each(['http', 'ws'] as const)(
    'close() on %s releases the port and closes the server',
    async (transport) => {
      const server = greeterServer();
      const closeServer = vi.spyOn(runtimeOf(server), 'close');
      const first = await serve(server, { transport });
      const port = portOf(first.url);
      await first.close();
      expect(closeServer).toHaveBeenCalledOnce();
      await first.closed;
      const again = await serve(greeterServer(), { transport, port });
      expect(portOf(again.url)).toBe(port);
      await again.close();
    },
  );

  it('closes the server once stdio input has ended, before closed resolves', async () => {
    const server = greeterServer();
    const closeServer = vi.spyOn(runtimeOf(server), 'close');
    const input = new PassThrough();
    const running = await serve(server, { transport: 'stdio', input, output: new PassThrough() });
    input.end();
    await running.closed;
    expect(closeServer).toHaveBeenCalledOnce();
  });

  it('closes the server on a signal named in stopOnSignals', async () => {
    const server = greeterServer();
    const closeServer = vi.spyOn(runtimeOf(server), 'close');
    const before = process.listenerCount('SIGUSR2');
    const running = await serve(server, { transport: 'http', stopOnSignals: ['SIGUSR2'] });
    process.emit('SIGUSR2', 'SIGUSR2');
    await running.closed;
    expect(closeServer).toHaveBeenCalledOnce();
    expect(process.listenerCount('SIGUSR2')).toBe(before);
  });

  it('closes the server and rejects when the transport cannot start', async () => {
    const blocker = createNetServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const { port } = blocker.address() as { port: number };
    const server = greeterServer();
    const closeServer = vi.spyOn(runtimeOf(server), 'close');
    try {
      await expect(serve(server, { transport: 'http', port })).rejects.toThrow(/EADDRINUSE/);
      expect(closeServer).toHaveBeenCalledOnce();
    } finally {
      blocker.close();
    }
  });

  it('rejects eras that turn both eras off', async () => {
    const eras = { modern: false, legacy: false } as const;
    await expect(serve(greeterServer(), { transport: 'http', eras })).rejects.toThrow(
      ConfigurationError,
    );
  });
});

describe('serve(endpoint): an endpoint handed over is the caller’s', () => {
  it('leaves the endpoint open after close()', async () => {
    const endpoint = createEndpoint(greeterServer(), { modern: modernEra(), legacy: legacyEra() });
    const closeEndpoint = vi.spyOn(endpoint, 'close');
    const running = await serve(endpoint, { transport: 'http' });
    await running.close();
    expect(closeEndpoint).not.toHaveBeenCalled();
    await endpoint.close();
  });

  it('refuses eras, which only a server can be composed with', async () => {
    const endpoint = createEndpoint(greeterServer(), { modern: modernEra() });
    // Only a JavaScript caller gets here: the overloads give an endpoint no `eras`.
    const options = { transport: 'http', eras: { legacy: false } } as Parameters<typeof serve>[1];
    await expect(serve(endpoint, options)).rejects.toThrow(ConfigurationError);
    await endpoint.close();
  });
});
