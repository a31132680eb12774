import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import type { Provider } from '@rondo/core';
import { createPrologProvider } from '@rondo/logtalk-bridge';

/** The command that installs SWI-Prolog on Debian and Ubuntu, printed when `swipl` is missing. */
export const SWIPL_INSTALL_COMMAND = 'apt-get install -y swi-prolog-nox';

/** Why the Prolog bird expert is not served, in words a newcomer can act on. */
export interface BirdsUnavailable {
  reason: string;
}

/** The first executable called `name` on PATH, or undefined. */
export function findOnPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  for (const folder of path.split(delimiter)) {
    if (!folder) continue;
    const candidate = join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder; keep looking
    }
  }
  return undefined;
}

/** The bird-identification expert shipped with the bridge package. */
export function birdsExamplePath(): string {
  const require = createRequire(import.meta.url);
  return join(
    dirname(require.resolve('@rondo/logtalk-bridge/package.json')),
    'examples',
    'birds.pl',
  );
}

/** The `swipl` to run (`RONDO_SWIPL`, else the first on PATH), or why the Prolog providers are off. */
export function findSwipl(): string | BirdsUnavailable {
  const swipl = process.env.RONDO_SWIPL || findOnPath('swipl');
  if (swipl) return swipl;
  return {
    reason:
      'SWI-Prolog (`swipl`) is not on PATH, so the Prolog bird expert and bird sightings are off. ' +
      `Install it with: ${SWIPL_INSTALL_COMMAND} (as root, or prefix sudo), then restart the demo.`,
  };
}

/**
 * Starts the Prolog bird expert (`examples/birds.pl`) through the bridge with `swipl` (see
 * {@link findSwipl}), or explains why it cannot: the demo must still start when Prolog fails, so a
 * failed start is a value, not an exception. The provider's lists are read once here so a broken start shows up now.
 */
export async function startBirdExpert(swipl: string): Promise<Provider | BirdsUnavailable> {
  try {
    const provider = await createPrologProvider({ files: [birdsExamplePath()], workers: 1, swipl });
    await provider.tools?.();
    return provider;
  } catch (failure) {
    const detail = failure instanceof Error ? failure.message : String(failure);
    return {
      reason: `The Prolog bird expert failed to start (${detail}); the TypeScript providers still run.`,
    };
  }
}
