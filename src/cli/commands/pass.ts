/** `trestle pass`: give up the turn. */
import { writeCommand } from "./write.js";

/** `pass`: kind `pass`; optional text and tokens. */
export const pass = writeCommand("pass", "give up your turn", { kind: "pass", text: "optional", fields: ["budget"] });
