/** `trestle say`: a turn's text. */
import { writeCommand } from "./write.js";

/** `say`: kind `say`; text, to, re, refs, tokens. */
export const say = writeCommand("say", "say something at the table (needs the floor unless human)", {
  kind: "say",
  text: "required",
  fields: ["to", "re", "refs", "budget"],
});
