/** Counts in words, shared by every sentence that says how many of something there are: "1 string", "2 strings", "0 strings". */

/** `n` and `noun`, the noun plural unless `n` is 1 (`plural` when adding "s" is not its plural). */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}
