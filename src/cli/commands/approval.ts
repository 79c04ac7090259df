/**
 * The shared body of `trestle approve` and `trestle reject` (docs/SPEC.md §5.6): the owner names a
 * task (`<seq>.<owner>`) or the seq of the proposal or decision that opened it; the client reads
 * that entry from the verified ledger and signs, with the owner key, exactly the effects it holds.
 * A task id names its owner, so `--owner` may be left out for one (the form chat replies and
 * `trestle watch --owner` print: `trestle approve <task> --table <table>`). A task of another owner
 * is refused before anything is signed (E_FORBIDDEN, as the relay would).
 */
import { TaskIdSchema, TrestleError, type ApprovalVerdict } from "../../protocol/index.js";
import { OWNER_FLAGS, positionals, TABLE_FLAG } from "../args.js";
import { UsageError } from "../exit.js";
import { headRef } from "../../text/format.js";
import type { Command } from "./command.js";

/** The command that answers a task with `verdict`. */
export function approvalCommand(verdict: ApprovalVerdict, summary: string): Command {
  return {
    name: verdict,
    summary,
    args: "<task | seq>",
    flags: {
      ...TABLE_FLAG,
      ...OWNER_FLAGS,
      owner: { ...OWNER_FLAGS.owner!, help: "the owner (default $TRESTLE_OWNER, else the one the task id names)" },
    },
    async run(ctx) {
      const [target] = positionals(ctx.args, ["task | seq"]);
      const table = ctx.tableId();
      const { owner, key } = await ctx.owner(taskOwner(target!));
      const seq = proposalSeq(target!, owner);
      const client = await ctx.table(table);
      const answer = await client.approve(key.signer, owner, seq, verdict);
      const c = ctx.out.c;
      const state = answer.state === "rejected" ? c.red(answer.state) : c.green(answer.state);
      ctx.out.result(
        `task ${c.bold(answer.task)} ${verdict === "approve" ? "approved" : "rejected"} by ${owner}: now ${state} (entry #${answer.seq}, head ${headRef(answer.head)})`,
        answer,
      );
    },
  };
}

/** The owner a task id names, or undefined for anything else (a bare seq names none). */
function taskOwner(target: string): string | undefined {
  return TaskIdSchema.safeParse(target).success ? target.slice(target.indexOf(".") + 1) : undefined;
}

/** The proposal seq a target names: a bare seq, or a task id that must be `owner`'s. */
function proposalSeq(target: string, owner: string): number {
  if (/^[1-9][0-9]{0,15}$/.test(target)) return Number(target);
  const named = taskOwner(target);
  if (named === undefined) throw new UsageError(`"${target}" is neither a task id (<seq>.<owner>) nor a seq`);
  if (named !== owner)
    throw new TrestleError(
      "E_FORBIDDEN",
      `task ${target} is ${named}'s; only ${named}'s key answers it, not ${owner}'s`,
    );
  return Number(target.slice(0, target.indexOf(".")));
}
