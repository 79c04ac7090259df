/** Types of viewer-size.mjs, for the test that checks what goes into the public viewer's script. */

/** The viewer bundled as the build bundles it: its bytes, gzipped bytes, and bytes per input file. */
export function viewerBundle(): Promise<{ bytes: number; gzip: number; inputs: Record<string, number> }>;
