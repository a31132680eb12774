import { parseArgs } from 'node:util';
import type { StateKey } from '@rondo/core';
import { FixtureTokensError, parseFixtureTokens } from './fixtureTokens.js';
import {
  SERVING_FLAG_OPTIONS,
  SERVING_FLAGS_HELP,
  SERVING_FLAGS_USAGE,
  ServingFlagError,
  readServingFlags,
} from '@rondo/server';

/** The transports the fixture CLI can serve on. */
export type FixtureTransport = 'stdio' | 'http' | 'ws';

/** The fixture CLI's parsed arguments. */
export interface FixtureArgs {
  transport: FixtureTransport;
  host: string;
  /** The port to listen on (http and ws only); 0 picks a free one. */
  port: number;
  /** The URL path (http and ws only); each transport has its own default (`/mcp`, `/ws`). */
  path?: string;
  /** The Redis server whose state this process shares with other replicas (`--redis`, `RONDO_REDIS_URL`). */
  redis?: string;
  /**
   * The Host names the server answers to (http and ws): `--allowed-hosts`, else
   * `RONDO_ALLOWED_HOSTS`; without either, the transports' default rule (loopback and IP literals).
   */
  allowedHosts?: readonly string[] | 'any';
  /** The requestState key ring from `--state-keys`; without it the core reads the environment. */
  stateKeys?: StateKey[];
  /** Static bearer tokens to principals (`RONDO_FIXTURE_TOKENS`, http and ws): every request needs one. */
  tokens?: ReadonlyMap<string, string>;
  /** Webhook callbacks on loopback and private addresses are accepted (`RONDO_EVENTS_ALLOW_PRIVATE_CALLBACKS=1`). */
  allowPrivateCallbacks?: true;
  /** `--help` was given: print {@link USAGE} and exit 0. */
  help?: true;
}

/** A command-line mistake: the CLI prints it with the usage and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The usage text. */
export const USAGE = `usage: rondo-fixture ${SERVING_FLAGS_USAGE} [--help]

${SERVING_FLAGS_HELP}

environment:
  RONDO_FIXTURE_TOKENS=token:principal,...    static bearer tokens (http, ws); every request needs one
  RONDO_EVENTS_ALLOW_PRIVATE_CALLBACKS=1      accept webhook callbacks on loopback and private addresses`;

/**
 * Parses the serving flags (`--transport`, `--port`, `--host`, `--path`, `--allowed-hosts`,
 * `--state-keys`, `--redis`, read by `@rondo/server`'s shared reader); `env` supplies
 * `RONDO_ALLOWED_HOSTS` and `RONDO_REDIS_URL` when a flag is absent, and `RONDO_FIXTURE_TOKENS` and
 * `RONDO_EVENTS_ALLOW_PRIVATE_CALLBACKS`, which have no flag (a token on the command line would
 * show in the process list).
 */
export function parseFixtureArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): FixtureArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { ...SERVING_FLAG_OPTIONS, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (failure) {
    throw new UsageError((failure as Error).message);
  }
  let parsed: FixtureArgs;
  try {
    parsed = readServingFlags(values, env);
  } catch (failure) {
    if (failure instanceof ServingFlagError) throw new UsageError(failure.message);
    throw failure;
  }
  if (values.help === true) parsed.help = true;
  if (env.RONDO_FIXTURE_TOKENS !== undefined && env.RONDO_FIXTURE_TOKENS !== '')
    try {
      parsed.tokens = parseFixtureTokens(env.RONDO_FIXTURE_TOKENS);
    } catch (failure) {
      if (failure instanceof FixtureTokensError) throw new UsageError(failure.message);
      throw failure;
    }
  if (env.RONDO_EVENTS_ALLOW_PRIVATE_CALLBACKS === '1') parsed.allowPrivateCallbacks = true;
  return parsed;
}
