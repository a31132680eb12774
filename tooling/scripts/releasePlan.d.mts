// Types of releasePlan.mjs, for the tests that import it.

/** One package's entry in a release plan. */
export interface PlannedRelease {
  name: string;
  type: 'none' | 'patch' | 'minor' | 'major';
  oldVersion: string;
  newVersion: string;
}

/** One pending changeset: its file name (`id`), its text and the bumps it asks for. */
export interface PlannedChangeset {
  id: string;
  summary: string;
  releases: { name: string; type: 'none' | 'patch' | 'minor' | 'major' }[];
}

/** What `changeset version` would apply. */
export interface ReleasePlan {
  changesets: PlannedChangeset[];
  releases: PlannedRelease[];
  preState?: { mode: 'pre' | 'exit'; tag: string };
}

/** A workspace package's manifest, in short. */
export interface WorkspaceManifest {
  name: string;
  version: string;
  private: boolean;
  dir: string;
}

/** The release plan of the workspace at `root`, read without writing anything. */
export declare function readReleasePlan(root: string): Promise<ReleasePlan>;

/** The package manifests of the workspace, by name. */
export declare function workspaceManifests(root: string): Map<string, WorkspaceManifest>;

/** The packages a changeset's summary says it breaks. */
export declare function brokenPackages(changeset: PlannedChangeset): string[];

/** Whether going from `oldVersion` to `newVersion` may carry a breaking change under semver. */
export declare function allowsBreaking(oldVersion: string, newVersion: string): boolean;

/** Every breaking change the plan would release as a compatible version: `[]` when semver holds. */
export declare function semverViolations(plan: ReleasePlan): string[];

/** The public packages the plan publishes, with the git tag each gets. */
export declare function publicReleases(
  plan: ReleasePlan,
  manifests: Map<string, WorkspaceManifest>,
): (PlannedRelease & { tag: string })[];
