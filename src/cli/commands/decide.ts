/** `trestle decide`: a binding outcome (only for seats in floor.decision_by), with effects if any (each opens a task). */
import { writeCommand } from "./write.js";

/** `decide`: kind `decision`; text, re, refs, tokens, effects. */
export const decide = writeCommand(
  "decide",
  "write a decision (may close the table), with effects on owners' resources",
  {
    kind: "decision",
    text: "required",
    fields: ["re", "refs", "budget", "effects"],
  },
);
