/** The code a call refuses with, or "accepted"; for negative cases that each name their code. */
import { TrestleError } from "../../../../src/protocol/index.js";

/** The TrestleError code `run` throws (sync or async), or "accepted". */
export async function refusal(run: () => unknown): Promise<string> {
  try {
    await run();
    return "accepted";
  } catch (error) {
    if (error instanceof TrestleError) return error.code;
    throw error;
  }
}
