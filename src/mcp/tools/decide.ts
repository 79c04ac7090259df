/** `trestle_decide`: a binding outcome (only seats in floor.decision_by); may close the table. */
import { z } from "zod";
import { BodySchema } from "../../protocol/index.js";
import { ReArg, RefsArg, TableArg, TokensArg } from "./args.js";
import { EffectsArg } from "./effects.js";
import { writeTool } from "./write.js";

/** Writes a `decision` entry as this seat. */
export const decide = writeTool({
  name: "trestle_decide",
  title: "Decide",
  description:
    "Write a decision. Only seats the table lets decide may; it stays in force and may close the table. With `effects`, it opens tasks like a proposal. Needs the floor.",
  input: z.strictObject({
    table: TableArg,
    text: BodySchema.min(1).describe("the decision"),
    effects: EffectsArg,
    re: ReArg,
    refs: RefsArg,
    tokens: TokensArg,
  }),
  build: ({ text, effects, re, refs, tokens }) => ({
    kind: "decision",
    body: text,
    effects,
    re,
    refs,
    budget: tokens === undefined ? undefined : { tokens },
  }),
});
