/** `trestle raise-hand`: ask for the floor. */
import { writeCommand } from "./write.js";

/** `raise-hand`: kind `raise_hand`; optional text. */
export const raiseHand = writeCommand("raise-hand", "ask for the floor", {
  kind: "raise_hand",
  text: "optional",
  fields: [],
});
