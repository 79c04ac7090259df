/** `trestle_pass`: give up the turn. */
import { z } from "zod";
import { BodySchema } from "../../protocol/index.js";
import { TableArg, TokensArg } from "./args.js";
import { writeTool } from "./write.js";

/** Writes a `pass` entry as this seat. */
export const pass = writeTool({
  name: "trestle_pass",
  title: "Pass the turn",
  description: "Give up your turn without saying anything (or with a short note). Needs the floor.",
  input: z.strictObject({
    table: TableArg,
    text: BodySchema.optional().describe("an optional note"),
    tokens: TokensArg,
  }),
  build: ({ text, tokens }) => ({
    kind: "pass",
    body: text ?? "",
    budget: tokens === undefined ? undefined : { tokens },
  }),
});
