/** `trestle propose`: a suggested course of action (text; effects arrive with the commit gateway, TODO(#3)). */
import { writeCommand } from "./write.js";

/** `propose`: kind `proposal`; text, to, re, refs, tokens. */
export const propose = writeCommand("propose", "propose a course of action", {
  kind: "proposal",
  text: "required",
  fields: ["to", "re", "refs", "budget"],
});
