/** `trestle_raise_hand`: ask for the floor. */
import { z } from "zod";
import { BodySchema } from "../../protocol/index.js";
import { TableArg } from "./args.js";
import { writeTool } from "./write.js";

/** Writes a `raise_hand` entry as this seat. */
export const raiseHand = writeTool({
  name: "trestle_raise_hand",
  title: "Raise your hand",
  description: "Ask for the floor; the table's topology decides when you get it. Needs no floor.",
  input: z.strictObject({ table: TableArg, text: BodySchema.optional().describe("why you want the floor (optional)") }),
  build: ({ text }) => ({ kind: "raise_hand", body: text ?? "" }),
});
