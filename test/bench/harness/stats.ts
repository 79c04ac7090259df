/** Small statistics for the bench: percentiles and the median of repeated runs. */

/** The `p`-th percentile (0..100) of `values` by nearest rank; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** The median of `values` (the lower middle for an even count). */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Rounds to `digits` decimal places, for readable JSON. */
export function round(value: number, digits = 2): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** Runs `run` `times` times and keeps the run whose `key` is the median. */
export async function medianRun<T>(
  times: number,
  run: (attempt: number) => Promise<T>,
  key: (result: T) => number,
): Promise<{ median: T; runs: number[] }> {
  const results: T[] = [];
  for (let i = 0; i < times; i += 1) results.push(await run(i));
  const sorted = [...results].sort((a, b) => key(a) - key(b));
  return { median: sorted[Math.floor((sorted.length - 1) / 2)]!, runs: results.map(key) };
}
