// Types of scaffoldVersions.mjs, for the tests that import it.
import type { ReleasePlan } from './releasePlan.mjs';

/** The packages a scaffold depends on, and the folder of each. */
export declare const SCAFFOLD_PACKAGES: Readonly<Record<string, string>>;

/** The changeset that releases create-rondo with the new versions, when one is needed. */
export declare function scaffoldChangeset(plan: ReleasePlan): string | undefined;

/** Rewrites create-rondo's versions.ts with the versions now in the manifests; returns whether it changed. */
export declare function syncScaffoldVersions(root: string): boolean;
