import type { Endpoint, HttpRoute } from '@rondo/core';
import {
  operationsRoutes,
  processMetrics,
  serveRoutes,
  withRoutes,
  type OperationsOptions,
} from './operations.js';
import type { RunningServer, Transport } from './runningServer.js';

/**
 * `endpoint` with the operator's routes beside it (`serve`'s `operations`, asked as the `serving`
 * listener), and the same routes for an admin listener (asked as `admin`), on one registry.
 */
export function withOperations(
  endpoint: Endpoint,
  options: OperationsOptions,
): { endpoint: Endpoint; routes: HttpRoute[] } {
  const shared = { ...options, registry: options.registry ?? processMetrics() };
  const serving = operationsRoutes(shared, 'serving');
  return { endpoint: withRoutes(endpoint, serving), routes: operationsRoutes(shared, 'admin') };
}

/**
 * `running` with the operator's `routes` also served on a listener of their own at
 * `host:port`, closed with it; a port that cannot be bound stops `running` and throws.
 */
export async function withAdminListener<T extends Transport>(
  running: RunningServer<T>,
  routes: readonly HttpRoute[],
  host: string | undefined,
  port: number,
): Promise<RunningServer<T>> {
  let admin;
  try {
    admin = await serveRoutes(routes, { ...(host ? { host } : {}), port });
  } catch (failure) {
    await running.close();
    throw failure;
  }
  const closed = running.closed.finally(() => admin.close());
  closed.catch(() => undefined);
  return {
    ...running,
    adminUrl: admin.url,
    closed,
    close: async () => {
      await running.close();
      await closed;
    },
  };
}
