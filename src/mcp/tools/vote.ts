/** `trestle_vote`: a vote on an open proposal (docs/SPEC.md §5.8); needs no floor, and enough yes votes decide a quorum table. */
import { z } from "zod";
import { VoteSubmissionSchema } from "../../protocol/index.js";
import { TableArg } from "./args.js";
import { writeTool } from "./write.js";

const fields = VoteSubmissionSchema.shape;

/** Writes a `vote` entry as this seat. */
export const vote = writeTool({
  name: "trestle_vote",
  title: "Vote on a proposal",
  description:
    "Vote yes, no or abstain on an open proposal (one vote per seat, or per owner when the quorum counts owners). Needs no floor. On a table with a quorum, the vote that reaches it turns the proposal into the table's decision.",
  input: z.strictObject({
    table: TableArg,
    re: fields.re.describe("the seq of the proposal you vote on (trestle_read shows it as [#N])"),
    choice: fields.choice.describe("yes, no or abstain"),
    text: fields.body.unwrap().optional().describe("a short reason (optional)"),
  }),
  build: ({ re, choice, text }) => ({ kind: "vote", re, choice, body: text ?? "" }),
});
