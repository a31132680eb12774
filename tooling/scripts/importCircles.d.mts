// Types of importCircles.mjs, for the repository test that runs it (test/repo/importCircles.test.ts).

/** One import circle: every file of its strongly connected component, and one closed path through it. */
export interface ImportCircle {
  readonly files: readonly string[];
  /** A closed path from the component's first file back to it (first and last are the same file). */
  readonly path: readonly string[];
}

/** The `src/` files of every package and app under `root` (`packages/*`, `apps/*`). */
export declare function workspaceSources(root?: string): string[];

/** The import graph of `files` (type-only imports included): each file to the files of the set it imports. */
export declare function importGraph(files: readonly string[]): Map<string, string[]>;

/** The circles of an import graph. */
export declare function circlesOf(graph: ReadonlyMap<string, readonly string[]>): ImportCircle[];

/** The import circles among the sources of every package and app under `root`. */
export declare function findImportCircles(root?: string): ImportCircle[];

/** One line per circle: its size and a closed path, relative to `root`. */
export declare function describeCircles(circles: readonly ImportCircle[], root?: string): string[];
