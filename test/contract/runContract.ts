import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCENARIOS } from './scenarios.js';
import { ERAS, EraClient, type EraName } from './support/eras.js';
import { PROVIDERS, serve, type ProviderName, type ServedProvider } from './support/servers.js';
import type { TransportName } from './support/transports.js';

/**
 * The contract table over one transport: every scenario against each provider in each era, one
 * server and one client per combination (started once, closed after its rows). Every message the
 * server writes during a row is validated against the schema of the client's revision.
 */
export function describeContract(transport: TransportName): void {
  for (const provider of PROVIDERS) {
    for (const era of ERAS) describeCombination(provider, era, transport);
  }
}

function describeCombination(provider: ProviderName, era: EraName, transport: TransportName): void {
  describe(`the ${provider} provider to a ${era} client over ${transport}`, () => {
    let served: ServedProvider | undefined;
    let client: EraClient;
    beforeAll(async () => {
      served = await serve(provider, transport);
      client = new EraClient(era, await served.connect());
      await client.start();
    });
    afterAll(async () => {
      await served?.close();
    });
    for (const scenario of SCENARIOS) {
      it(scenario.name, async () => {
        const from = client.received.length;
        await scenario.run({ client, era, transport, provider });
        expect(client.problems(from), `${client.revision} wire`).toEqual([]);
      });
    }
  });
}
