import { randomUUID } from 'node:crypto';
import { createClient } from '@redis/client';
import { afterAll, beforeAll } from 'vitest';
import type { SharedStateError } from '@rondo/core';
import { createRedisState, type RedisState, type RedisStateOptions } from '@rondo/redis';
import { startRedisServer, type RedisServer } from '@rondo/test-support/redisServer';

/** A redis-server for the file's tests, started before them and killed after. */
export function useRedisServer(): () => RedisServer {
  let server: RedisServer | undefined;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (server === undefined) throw new Error('the redis-server has not started');
    return server;
  };
}

/** A state with its own prefix (so tests sharing a server do not meet) and its reported failures. */
export interface TestState extends RedisState {
  readonly reported: SharedStateError[];
  readonly prefix: string;
}

/**
 * Opens `count` states on one prefix, as that many processes of one endpoint would; reported
 * background failures are collected instead of printed.
 */
export async function openStates(
  url: string,
  count: number,
  options: Partial<RedisStateOptions> = {},
): Promise<TestState[]> {
  const prefix = `test-${randomUUID()}:`;
  return Promise.all(
    Array.from({ length: count }, async () => {
      const reported: SharedStateError[] = [];
      const state = await createRedisState({
        url,
        prefix,
        onError: (error) => reported.push(error),
        ...options,
      });
      return Object.assign(state, { reported, prefix });
    }),
  );
}

/** Closes every state. */
export async function closeAll(states: readonly RedisState[]): Promise<void> {
  await Promise.all(states.map((state) => state.close()));
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One command on a connection of its own, to look at the server from outside the states. */
export async function redisCommand(url: string, args: string[]): Promise<unknown> {
  const client = createClient({ url });
  await client.connect();
  try {
    return await client.sendCommand(args);
  } finally {
    await client.close();
  }
}
