/** `trestle vote <yes|no|abstain>`: a seat's vote on an open proposal (docs/SPEC.md §5.8); needs no floor. */
import type { SeatSubmission } from "../../client/index.js";
import { integer, positionals, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import { UsageError } from "../exit.js";
import type { Command } from "./command.js";
import { bodyOf, submitEntry } from "./write.js";

const CHOICES = ["yes", "no", "abstain"] as const;
type Choice = (typeof CHOICES)[number];

/** `vote`: kind `vote`; the choice, --re (required) and an optional reason. */
export const vote: Command = {
  name: "vote",
  summary: "vote yes, no or abstain on an open proposal",
  args: "<yes|no|abstain> [text | -]",
  flags: {
    ...TABLE_FLAG,
    ...SEAT_FLAGS,
    re: { type: "string", value: "SEQ", help: "the proposal voted on (required)" },
  },
  async run(ctx) {
    const [choice, text] = positionals(ctx.args, ["yes|no|abstain", "text"], 1);
    if (!isChoice(choice)) throw new UsageError(`the vote must be yes, no or abstain, not "${choice}"`);
    const re = integer(ctx.args, "re");
    if (re === undefined) throw new UsageError("--re is required: the seq of the proposal voted on");
    const submission: SeatSubmission = { kind: "vote", re, choice, body: await bodyOf(ctx, text, null) };
    await submitEntry(ctx, submission);
  },
};

function isChoice(text: string | undefined): text is Choice {
  return CHOICES.some((c) => c === text);
}
