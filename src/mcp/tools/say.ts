/** `trestle_say`: a turn's text (needs the floor unless the seat is a person's). */
import { z } from "zod";
import { BodySchema } from "../../protocol/index.js";
import { ReArg, RefsArg, TableArg, ToArg, TokensArg } from "./args.js";
import { writeTool } from "./write.js";

/** Writes a `say` entry as this seat. */
export const say = writeTool({
  name: "trestle_say",
  title: "Say something at the table",
  description:
    "Write a turn's text at the table as your seat. Needs the floor (see trestle_read / trestle_wait); writing ends your turn.",
  input: z.strictObject({
    table: TableArg,
    text: BodySchema.min(1).describe("what you say"),
    to: ToArg,
    re: ReArg,
    refs: RefsArg,
    tokens: TokensArg,
  }),
  build: ({ text, to, re, refs, tokens }) => ({
    kind: "say",
    body: text,
    to,
    re,
    refs,
    budget: tokens === undefined ? undefined : { tokens },
  }),
});
