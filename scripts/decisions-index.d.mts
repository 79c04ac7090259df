/** Types of decisions-index.mjs, for the test that keeps docs/decisions/README.md the index of the records. */

/** One record as the index reads it. */
export interface DecisionRecord {
  file: string;
  number: string | null;
  title: string | null;
  status: string | null;
  supersededBy: string[];
  saysSupersededBy: string[];
  saysSupersedes: string[];
}
/** The folder of the decision records. */
export const DECISIONS_DIR: string;
/** The index the script writes (docs/decisions/README.md). */
export const DECISIONS_INDEX: string;
/** The line a new record carries as its third line. */
export const NEW_STATUS_LINE: string;
/** Every record in `dir` (the decisions folder by default), in number order. */
export function readDecisions(dir?: string): DecisionRecord[];
/** What is wrong with `records`, one sentence per fault naming the file and exactly what to write. */
export function decisionProblems(records: DecisionRecord[]): string[];
/** docs/decisions/README.md for `records`, which have no problems. */
export function renderIndex(records: DecisionRecord[]): string;
