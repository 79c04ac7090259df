/** `trestle receipt`: the executor reports what it did for a task (running → reported; docs/SPEC.md §5.6). */
import { writeCommand } from "./write.js";

/** `receipt`: kind `receipt`; task, text, result, refs, tokens. */
export const receipt = writeCommand("receipt", "report what was done for a task (executor)", {
  kind: "receipt",
  text: "required",
  fields: ["task", "result", "refs", "budget"],
});
