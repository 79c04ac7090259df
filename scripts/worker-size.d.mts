/** Types of worker-size.mjs, for the deploy test that measures the bundle the same way. */

/** Runs `wrangler deploy --dry-run` (of wrangler.toml, or of `config`) into a fresh folder; resolves with that folder (its `index.js` is the bundle). */
export function dryRunDeploy(config?: string): Promise<string>;
/** The gzip size in bytes of the bundle a dry run wrote to `out`. */
export function compressedBytes(out: string): number;
/** `bytes` in KiB, rounded to a whole number, as the docs state it. */
export function kib(bytes: number): number;
