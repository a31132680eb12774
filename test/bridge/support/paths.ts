import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const at = (path: string): string => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

/** The built `rondo-logtalk` CLI (`pnpm logtalk-host`). */
export const HOST_MAIN = at('apps/logtalk-host/dist/main.js');
/** The conformance fixture written in Prolog (`pnpm fixture:prolog`). */
export const PROLOG_FIXTURE = at('apps/logtalk-host/fixture/conformance.pl');
/** The bridge's examples: the bird expert as a module and as a Logtalk object. */
export const BIRDS_PL = at('packages/logtalk-bridge/examples/birds.pl');
export const BIRDS_LGT = at('packages/logtalk-bridge/examples/birds.lgt');

/** A provider file used by the bridge's own tests (every vocabulary form is in `vocab.pl`). */
export function bridgeFixture(name: string): string {
  return at(`packages/logtalk-bridge/test/fixtures/${name}`);
}

/** A provider file of these tests. */
export function wireFixture(name: string): string {
  return fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
}

/** Fails early, with the fix, when the CLI has not been built. */
export function requireBuiltHost(): string {
  if (!existsSync(HOST_MAIN)) throw new Error(`${HOST_MAIN} is missing: run pnpm build first`);
  return HOST_MAIN;
}

export { logtalkHomeForTests } from '@rondo/test-support/logtalkHome';
