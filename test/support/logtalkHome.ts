import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The Logtalk the Logtalk-flavour tests run on: `LOGTALKHOME` when it is set, otherwise the
 * workplace's copy beside the checkout (`../shared/logtalk`), with a fresh writable
 * `LOGTALKUSER`, so these tests run in CI too. Sets both variables in `process.env` for the
 * providers and CLIs the tests start; undefined when neither is there.
 */
export function logtalkHomeForTests(): string | undefined {
  if (process.env.LOGTALKHOME) return process.env.LOGTALKHOME;
  const shared = path.resolve(repoRoot, '../shared/logtalk');
  if (!existsSync(path.join(shared, 'integration', 'logtalk_swi.pl'))) return undefined;
  process.env.LOGTALKHOME = shared;
  process.env.LOGTALKUSER ??= mkdtempSync(path.join(tmpdir(), 'rondo-logtalk-user-'));
  return shared;
}

/** Why the Logtalk-flavour tests are skipped, for the line they print. */
export const NO_LOGTALK =
  'LOGTALKHOME is not set and ../shared/logtalk is absent (point LOGTALKHOME at a Logtalk 3 distribution)';
