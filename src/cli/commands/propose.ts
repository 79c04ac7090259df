/** `trestle propose`: a suggested course of action, with effects on owners' resources if any (each opens a task). */
import { writeCommand } from "./write.js";

/** `propose`: kind `proposal`; text, to, re, refs, tokens, effects. */
export const propose = writeCommand("propose", "propose a course of action, with effects on owners' resources", {
  kind: "proposal",
  text: "required",
  fields: ["to", "re", "refs", "budget", "effects"],
});
