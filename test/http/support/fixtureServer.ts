import { createFixtureEndpoint } from '@rondo/conformance-fixture';
import type { Endpoint } from '@rondo/core';
import { serveHttp, type HttpServerHandle, type ServeHttpOptions } from '@rondo/transport-http';
import { scaled } from '@rondo/test-support/timeFactor';

/** One HTTP exchange as a client saw it. */
export interface SeenExchange {
  method: string;
  /** The JSON-RPC method (or `response`) of a POST body. */
  rpc: string | undefined;
  status: number;
  contentType: string | null;
  requestHeaders: Record<string, string>;
}

/** The conformance fixture served over HTTP in this process, on 127.0.0.1 port 0. */
export interface FixtureHttp {
  endpoint: Endpoint;
  server: HttpServerHandle;
  url: URL;
  /** Every HTTP exchange made through {@link FixtureHttp.fetch}. */
  seen: SeenExchange[];
  /** A fetch that records what it sent and got; pass it to a client transport. */
  fetch: typeof fetch;
  close(): Promise<void>;
}

/** Starts the fixture over HTTP. */
export async function startFixtureHttp(options: ServeHttpOptions = {}): Promise<FixtureHttp> {
  const endpoint = createFixtureEndpoint({ log: () => undefined });
  const server = await serveHttp(endpoint, options);
  const seen: SeenExchange[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    seen.push({
      method: init?.method ?? 'GET',
      rpc: rpcOf(init?.body),
      status: response.status,
      contentType: response.headers.get('content-type'),
      requestHeaders: headers,
    });
    return response;
  };
  return {
    endpoint,
    server,
    url: new URL(server.url),
    seen,
    fetch: recordingFetch,
    close: async () => {
      await server.close();
      await endpoint.close();
    },
  };
}

function rpcOf(body: unknown): string | undefined {
  if (typeof body !== 'string') return undefined;
  const message = JSON.parse(body) as { method?: string };
  return message.method ?? 'response';
}

/** Resolves when `predicate` holds, polling. */
export async function until(predicate: () => boolean, timeoutMs = scaled(5000)): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
