import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPrologProvider, type PrologProvider } from '@rondo/logtalk-bridge';
import { birdsExamplePath, type BirdsUnavailable } from './birds.js';

/** The demo's own Prolog module: `report_sighting` and the `bird_sighted` event type. */
export function sightingsPath(): string {
  // src/providers or dist/providers alike: two folders below the app, beside prolog/.
  return join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'prolog', 'sightings.pl');
}

/**
 * Starts the bird sightings provider (`prolog/sightings.pl`, loaded beside the expert's
 * `birds.pl` so that both name the same birds), whose `events/1` declares `bird_sighted` and whose
 * `report_sighting` raises it with `mcp_emit/3`. Like the expert, a failed start is a value: the
 * demo goes on without it. Its event types are served by `prologEvents(...)` in the demo server.
 */
export async function startBirdSightings(
  swipl: string,
): Promise<PrologProvider | BirdsUnavailable> {
  try {
    const provider = await createPrologProvider({
      files: [birdsExamplePath(), sightingsPath()],
      // Both files define provider hooks; the expert is served on its own.
      object: 'sightings',
      workers: 1,
      swipl,
    });
    await provider.tools?.();
    return provider;
  } catch (failure) {
    const detail = failure instanceof Error ? failure.message : String(failure);
    return {
      reason: `The Prolog bird sightings failed to start (${detail}); the other providers still run.`,
    };
  }
}
