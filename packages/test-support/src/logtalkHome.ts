import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The Logtalk the Logtalk-flavour tests run on: `LOGTALKHOME` when it is set, otherwise the
 * workplace's distribution beside the checkout (`../shared/logtalk`, from the repository root
 * whatever the working directory), so these tests run in CI too. Sets `LOGTALKHOME` in
 * `process.env` for the providers and CLIs the tests start. The bridge gives every worker its
 * own `LOGTALKUSER`, so no writable one is needed here.
 */
export function logtalkHomeForTests(): string {
  process.env.LOGTALKHOME ||= path.resolve(repoRoot, '../shared/logtalk');
  return process.env.LOGTALKHOME;
}
