/** `trestle say`: a turn's text. */
import { writeCommand } from "./write.js";

export const say = writeCommand("say", "say something at the table (needs the floor unless human)", {
  kind: "say",
  text: "required",
  fields: ["to", "re", "refs", "budget"],
});
