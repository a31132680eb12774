/**
 * The versions a scaffolded project depends on. Kept beside the workspace's own versions by
 * `test/versions.test.ts`, which fails when a release bumps Rondo or the catalog and these lag.
 */
export const VERSIONS = {
  '@rondo/server': '0.2.0',
  '@rondo/logtalk-host': '0.2.0',
  '@rondo/client': '0.2.0',
  zod: '4.6.7',
  typescript: '5.9.3',
  '@types/node': '20.19.43',
} as const;

/** A package a scaffolded project depends on. */
export type ScaffoldDependency = keyof typeof VERSIONS;

/** The caret range of a dependency, as a package.json names it. */
export function rangeOf(name: ScaffoldDependency): string {
  return `^${VERSIONS[name]}`;
}
