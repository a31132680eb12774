import type { Contender, Role, Scenario } from './scenarios.js';

/**
 * Clients under test: Rondo's client and the official SDK v2 client calling the same Rondo server
 * (the bench's echo tool, 2026-07-28), over stdio and over HTTP. Each contender is a client process
 * that runs its own calls (`src/clients/callLoop.ts`); its CPU per call is the client's own. Over
 * HTTP Rondo's client runs on `node:http` (`nodeHttpTransport`) and, as a third contender, on the
 * global fetch the SDK's transport uses, so what fetch costs shows apart from the rest.
 */

const IN_FLIGHT = 16;

function clientContenders(transport: 'stdio' | 'http'): Contender[] {
  const contender = (label: string, role: Role, client: string): Contender => ({
    label,
    role,
    server: {
      script: 'callLoop',
      args: ['--client', client, '--transport', transport, '--in-flight', String(IN_FLIGHT)],
    },
  });
  const list = [
    contender('SDK v2 client', 'sdk-client', 'sdk'),
    contender('Rondo client', 'rondo-client', 'rondo'),
  ];
  if (transport === 'http')
    list.push(contender('Rondo client (fetch)', 'rondo-client-fetch', 'rondo-fetch'));
  return list;
}

function clientScenario(transport: 'stdio' | 'http'): Scenario {
  return {
    id: `client-${transport}`,
    title: `clients: tools/call to a Rondo server over ${transport === 'http' ? 'HTTP' : 'stdio'}, ${IN_FLIGHT} calls in flight (CPU is the client's)`,
    transport,
    contenders: clientContenders(transport),
    bind: async (child) => ({
      run: (durationMs) => child.slice(durationMs),
      close: async () => undefined,
    }),
  };
}

/** The client scenarios, stdio then HTTP. */
export const CLIENT_SCENARIOS: Scenario[] = [clientScenario('stdio'), clientScenario('http')];
