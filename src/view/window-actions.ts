/**
 * Three of the principal window's actions at one followed table, signed with the owner key exactly
 * as the CLI signs them (docs/VIEW.md): an approval of this owner's task through
 * TableClient.approve (`trestle approve`), a revocation of one of this owner's seats through
 * client/revoke.ts revokeSeat (`trestle revoke`), and an answer to a message the commitment gate
 * holds for one of this owner's seats through owner/gate.ts answerHeld (`trestle gate
 * approve|reject`; the seat sends it, never the window). A task or seat that is not this owner's is
 * refused (E_FORBIDDEN) before anything is signed.
 */
import { revokeSeat } from "../client/node.js";
import { answerHeld, readTranscript, seatJournal } from "../owner/index.js";
import { TrestleError } from "../protocol/index.js";
import type { LoopContext } from "./owner-loop.js";
import type { Identity, TableWatch } from "./table-watch.js";
import type { ActionResult, ApproveBody, GateBody, GateResult } from "./wire.js";

/** Signs `verdict` on this owner's task `task` with the owner key, over the proposal read from the verified ledger (as `trestle approve`); E_FORBIDDEN for another owner's task. */
export async function approveTask(
  me: Identity,
  watch: TableWatch,
  { task, verdict }: Omit<ApproveBody, "table">,
): Promise<ActionResult> {
  const dot = task.indexOf(".");
  const owner = task.slice(dot + 1);
  if (owner !== me.name)
    throw new TrestleError("E_FORBIDDEN", `task ${task} is ${owner}'s; this window signs for ${me.name} only`);
  const answer = await watch.client.approve(me.signer, me.name, Number(task.slice(0, dot)), verdict);
  const done = verdict === "approve" ? "approved" : "rejected";
  return {
    ok: true,
    seq: answer.seq,
    message: `task ${answer.task} ${done} with ${me.name}'s key: now ${answer.state} (entry #${answer.seq})`,
  };
}

/** Signs a revocation of `seat` with the owner key, over the key the verified ledger says holds it (as `trestle revoke`); a seat that is not this owner's is refused before sending. */
export async function revokeOwnSeat(me: Identity, watch: TableWatch, seat: string): Promise<ActionResult> {
  const revoked = await revokeSeat(watch.client, me.name, me.signer, seat);
  return {
    ok: true,
    seq: revoked.seq,
    message: `seat ${seat} at ${watch.table} revoked with ${me.name}'s key (entry #${revoked.seq}): it left the table, and its key ${revoked.seat_key.slice(0, 12)}… is refused there from now on`,
  };
}

/** Signs this owner's answer to held message `message_sha256` of `seat`, one of this owner's seats by the table's ledger, into the seat's journal (answerHeld over the transcript verified as this owner); sends nothing. */
export async function answerGate(
  ctx: LoopContext,
  watch: TableWatch,
  { seat, message_sha256, verdict }: Omit<GateBody, "table">,
): Promise<GateResult> {
  const { table } = watch;
  const me = ctx.owner;
  if (!watch.summary().seats.some((s) => s.name === seat && s.owner === me.name)) {
    throw new TrestleError(
      "E_FORBIDDEN",
      `seat ${seat} at ${table} is not ${me.name}'s by the table's ledger; this window answers for ${me.name}'s seats only`,
    );
  }
  const journal = seatJournal(ctx.home, table, seat, ctx.clock);
  const transcript = await readTranscript(watch.client, { signer: me.signer, as: { owner: me.name } });
  await answerHeld(journal, transcript, me.signer, message_sha256, verdict);
  const short = message_sha256.slice(0, 16);
  const message =
    verdict === "approve"
      ? `message ${short}… approved with ${me.name}'s key; the seat sends it (trestle gate send ${message_sha256.slice(0, 12)} --table ${table} --seat ${seat}, or its agent's gate tool): this window sends nothing`
      : `message ${short}… rejected with ${me.name}'s key; it will not be sent`;
  return { ok: true, message_sha256, verdict, message };
}
