/** `trestle_propose`: a suggested course of action, optionally with effects that open tasks. */
import { z } from "zod";
import { BodySchema } from "../../protocol/index.js";
import { ReArg, RefsArg, TableArg, ToArg, TokensArg } from "./args.js";
import { EffectsArg } from "./effects.js";
import { writeTool } from "./write.js";

/** Writes a `proposal` entry as this seat. */
export const propose = writeTool({
  name: "trestle_propose",
  title: "Propose a course of action",
  description:
    "Propose a course of action. With `effects`, each affected owner gets a task that waits for that owner's own signed approval; nothing runs before it. Needs the floor.",
  input: z.strictObject({
    table: TableArg,
    text: BodySchema.min(1).describe("the proposal"),
    effects: EffectsArg,
    to: ToArg,
    re: ReArg,
    refs: RefsArg,
    tokens: TokensArg,
  }),
  build: ({ text, effects, to, re, refs, tokens }) => ({
    kind: "proposal",
    body: text,
    effects,
    to,
    re,
    refs,
    budget: tokens === undefined ? undefined : { tokens },
  }),
});
