// Types of apiReport.mjs, for the tests that import it.

/** The report text of every statement of a declaration file's `text`, as the reports print each. */
export declare function reportTextOf(text: string): string;
