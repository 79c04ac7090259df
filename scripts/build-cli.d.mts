/** Types of build-cli.mjs, for the tests that need the CLI's bundles (dist/verify-worker.mjs among them) when they are stale. */

/** The CLI's bundle. */
export const BUNDLE: string;
/** The demo's bundle. */
export const DEMO_BUNDLE: string;
/** The CLI's, the demo's and the verify worker's entries, each into its bundle. */
export const ENTRIES: { entry: string; out: string; split?: boolean }[];
/** What the bundles are built from, watched for staleness (all of src/, package.json). */
export const CLI_SOURCES: string[];
/** Whether a bundle (or the window's page) is missing or older than a source file. */
export function isStale(): boolean;
/** Builds the bundles and the window's page. */
export function buildCli(): Promise<void>;
