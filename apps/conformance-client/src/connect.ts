import { Client, httpTransport, type ClientHandlers, type EraChoice } from '@rondo/client';
import type { ScenarioRun } from './scenario.js';

/** The revision the harness asks for, as the client's era choice (`auto` when it names none). */
export function eraOf(run: ScenarioRun): EraChoice {
  const pinned: readonly string[] = ['2026-07-28', '2025-11-25', '2025-06-18'];
  const version = run.protocolVersion;
  return version !== undefined && pinned.includes(version) ? (version as EraChoice) : 'auto';
}

/** Handlers that answer whatever a scenario's server asks: accept with no content, a canned reply, no roots. */
export const cannedHandlers: ClientHandlers = {
  elicitation: () => ({ action: 'accept', content: {} }),
  sampling: () => ({
    role: 'assistant',
    content: { type: 'text', text: 'A reply from the conformance client.' },
    model: 'conformance-client',
    stopReason: 'endTurn',
  }),
  roots: () => [],
};

/** Connects a client to the scenario's server over Streamable HTTP. */
export async function connectTo(
  run: ScenarioRun,
  handlers: ClientHandlers = cannedHandlers,
): Promise<Client> {
  const client = new Client({
    transport: httpTransport({ url: run.serverUrl }),
    era: eraOf(run),
    clientInfo: { name: 'rondo-conformance-client', version: '0.1.0' },
    handlers,
  });
  await client.connect();
  return client;
}

/** Runs `body` with a connected client and closes it afterwards. */
export async function withClient(
  run: ScenarioRun,
  body: (client: Client) => Promise<void>,
  handlers?: ClientHandlers,
): Promise<void> {
  const client = await connectTo(run, handlers);
  try {
    await body(client);
  } finally {
    await client.close();
  }
}
