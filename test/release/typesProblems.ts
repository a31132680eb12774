import { readFileSync } from 'node:fs';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import type { Problem, ResolutionKind } from '@arethetypeswrong/core/types';

/**
 * The resolutions arethetypeswrong's `esm-only` profile leaves out: Rondo's packages are ESM only,
 * so a CommonJS `require` (node16-cjs) or the pre-exports resolution (node10) is not offered.
 */
const NOT_IN_ESM_PROFILE: ReadonlySet<ResolutionKind> = new Set(['node10', 'node16-cjs']);

const inEsmProfile = (problem: Problem): boolean =>
  !('resolutionKind' in problem && NOT_IN_ESM_PROFILE.has(problem.resolutionKind));

/**
 * The problems arethetypeswrong finds in a packed package (its tarball) under the ESM-only profile,
 * each as `kind entrypoint (resolution)`: `[]` when the types resolve as the JavaScript does.
 */
export async function typesProblems(tarball: string): Promise<string[]> {
  const analysis = await checkPackage(createPackageFromTarballData(readFileSync(tarball)));
  if (!('problems' in analysis)) throw new Error(`arethetypeswrong: ${tarball} has no types`);
  return analysis.problems
    .filter(inEsmProfile)
    .map((problem) =>
      [
        problem.kind,
        'entrypoint' in problem ? problem.entrypoint : '',
        'resolutionKind' in problem ? `(${problem.resolutionKind})` : '',
      ]
        .filter(Boolean)
        .join(' '),
    );
}
