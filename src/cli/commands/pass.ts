/** `trestle pass`: give up the turn. */
import { writeCommand } from "./write.js";

export const pass = writeCommand("pass", "give up your turn", { kind: "pass", text: "optional", fields: ["budget"] });
