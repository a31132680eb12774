import { inMemoryTransport } from '@rondo/client';
import { createServer, type Provider, type StateKey } from '@rondo/core';
import {
  createPrologProvider,
  prologEvents,
  prologSkills,
  type PrologProvider,
} from '@rondo/logtalk-bridge';
import type { UpstreamSpec } from '@rondo/proxy';
import { composeEndpoint } from '@rondo/server/endpoint';
import { tasks } from '@rondo/tasks';
import type { GatewayEntry } from './config.js';

/** A gateway entry hosting a Prolog provider (`"prolog": "file.pl"`). */
export type PrologEntry = Extract<GatewayEntry, { kind: 'prolog' }>;

/** How the gateway serves a provider under an entry's rules. */
export interface EntryServing {
  /** The provider named by the entry's rules (namespace, include, ...), hosted directly. */
  readonly named: (provider: Provider) => Provider;
  /** A proxy of an upstream under the entry's rules and limits. */
  readonly proxied: (spec: UpstreamSpec) => Provider;
  /** The gateway's key ring: an in-process upstream seals its event cursors with it. */
  readonly stateKeys?: readonly StateKey[];
}

/**
 * The provider of a `prolog` entry, its workers started in this process: the Prolog provider
 * `named` by the entry's rules; one whose `skills/1` declares skills or whose `events/1` declares
 * event types is served by a server of its own (the provider with its skills and its events, as
 * `rondo-logtalk` serves it), which the gateway reaches in process through a proxy like any
 * upstream, so that its skills, their files and its event types pass through as any upstream's do.
 */
export async function prologEntryProvider(
  entry: PrologEntry,
  log: (line: string) => void,
  { named, proxied, stateKeys }: EntryServing,
): Promise<Provider> {
  const prolog = await createPrologProvider({
    files: entry.files,
    name: entry.key,
    workers: entry.workers ?? 1,
    ...(entry.object ? { object: entry.object } : {}),
    ...(entry.timeoutMs ? { timeoutMs: entry.timeoutMs } : {}),
    onLog: (line) => log(`[${entry.key}] ${line.message}`),
  });
  if (prolog.skills.length === 0 && prolog.events.length === 0) return named(prolog);
  return proxied(inProcessUpstream(entry.key, prolog, stateKeys));
}

/** An upstream of one Prolog provider, its skills and its event types, served in this process. */
function inProcessUpstream(
  key: string,
  prolog: PrologProvider,
  stateKeys: readonly StateKey[] | undefined,
): UpstreamSpec {
  try {
    const server = createServer({ name: key, version: '0.1.0' }).provider(prolog).use(tasks());
    if (prolog.skills.length > 0) server.use(prologSkills(prolog.skills));
    // Its cursors, sealed inside the gateway's, open in every replica sharing the key ring.
    if (prolog.events.length > 0)
      server.use(prologEvents(prolog, stateKeys ? { cursors: { keys: stateKeys } } : {}));
    const endpoint = composeEndpoint(server);
    return {
      transport: () => inMemoryTransport(endpoint),
      label: `prolog ${key}`,
      // Closing the endpoint closes its server, and the server its provider's workers.
      close: () => endpoint.close(),
    };
  } catch (failure) {
    void prolog.close();
    throw failure;
  }
}
