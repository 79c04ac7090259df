/** Types of build-view.mjs, for the tests that build the principal window's page when it is stale. */

/** Where the page is built (dist/view). */
export const VIEW_DIR: string;
/** The page script's entry. */
export const VIEW_ENTRY: string;
/** What the page is built from, watched for staleness. */
export const VIEW_SOURCES: string[];
/** Whether the page is missing or older than a source. */
export function viewStale(): boolean;
/** Builds the page into dist/view/. */
export function buildView(): Promise<void>;
