/** `trestle decide`: a binding outcome (only for seats in floor.decision_by). */
import { writeCommand } from "./write.js";

/** `decide`: kind `decision`; text, re, refs, tokens. */
export const decide = writeCommand("decide", "write a decision (may close the table)", {
  kind: "decision",
  text: "required",
  fields: ["re", "refs", "budget"],
});
