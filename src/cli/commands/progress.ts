/** `trestle progress`: the executor starts a task (approved → running) or reports it is still running (docs/SPEC.md §5.6). */
import { writeCommand } from "./write.js";

/** `progress`: kind `progress`; task, optional text, tokens. */
export const progress = writeCommand("progress", "start an approved task, or report it is still running (executor)", {
  kind: "progress",
  text: "optional",
  fields: ["task", "budget"],
});
