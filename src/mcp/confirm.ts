/**
 * Asking the owner in person before this server signs something a model asked for (docs/MCP.md
 * "Approvals open the principal window", decision 0480): an approval or rejection, a held
 * message's release, a deal signature, a table's deletion. The tool opens a decision in the
 * principal window (./owner-window.ts) and hands the client its link: a URL-mode elicitation on
 * 2025-11-25, an input-required result carrying the URL on 2026-07-28 (one reply, ToolAsk; the
 * SDK sends it as the one or the other). The owner key signs only on the owner's Approve in that
 * window; the client's answer says only whether the owner opened the link, and a form answer never
 * signs anything. The client's retry waits for the window. A client that cannot show a link, a
 * decline, a Decline in the window, an expiry or a cancelled call is E_NOT_CONFIRMED
 * (`details.reason`), and nothing is signed.
 */
import { inputRequired, inputResponse } from "@modelcontextprotocol/server";
import { z } from "zod";
import { TrestleError } from "../protocol/index.js";
import type { ToolAsk, ToolContext, ToolReply } from "./tool.js";

/** What to ask: the decision's words, its Approve label, what stays unsigned on a no, the progress note, and the signature itself. */
export interface OwnerAsk {
  /** One line: what signing does ("APPROVE task 12.tao at table t-1"). */
  title: string;
  /** The words the owner decides on in the window, one safe line each. */
  lines: readonly string[];
  /** The window's Approve button ("Approve and sign with my owner key"). */
  approve: string;
  /** "for task 12.tao", "to delete table t-1": ends the sentence "nothing was signed …". */
  unsigned: string;
  /** The progress note while the owner is asked. */
  progress: string;
  /** Signs, on the owner's Approve in the window; its reply is the tool's. */
  sign(): Promise<ToolReply>;
}

/** The key the link is asked under (the client's answer comes back under it). */
const LINK_KEY = "owner";
/** What a retry of an ask brings back: the decision it waits for. */
const AskStateSchema = z.strictObject({ owner_decision: z.string().min(1).max(64) });

/**
 * Throws E_NOT_CONFIRMED when the connected client cannot hand its human a link (URL-mode
 * elicitation): `no_elicitation` for a client that cannot ask at all, `form_only` for one that
 * only shows forms, which never sign (checked before anything else is done).
 */
export function requireOwnerLink(ctx: ToolContext, unsigned: string): void {
  if (ctx.elicitation.url) return;
  const reason = ctx.elicitation.form ? "form_only" : "no_elicitation";
  const why = ctx.elicitation.form
    ? "this MCP client can show your owner a form but not a link (URL elicitation), and a form answer never signs"
    : "this MCP client cannot ask your owner (no elicitation)";
  throw new TrestleError("E_NOT_CONFIRMED", `${why}, so nothing was signed ${unsigned}`, { reason });
}

/** Opens the decision in the principal window and returns the reply that hands the client its link. */
export async function askOwner(ctx: ToolContext, ask: OwnerAsk): Promise<ToolAsk> {
  requireOwnerLink(ctx, ask.unsigned);
  const opened = ctx.window.decisions.open({
    title: ask.title,
    lines: ask.lines,
    approve: ask.approve,
    sign: ask.sign,
  });
  const url = await ctx.window.link(opened);
  ctx.progress(ask.progress);
  const message = `trestle: your owner's signature is needed to ${ask.title}. Open the link: the principal window on this machine shows exactly what would be signed, and your owner key signs only if you approve there. Your AI agent asked for this; only you decide.`;
  return { ask: { [LINK_KEY]: inputRequired.elicitUrl({ message, url }) }, state: { owner_decision: opened.id } };
}

/**
 * The reply of a retried ask (the state names its decision), once the owner decided in the window;
 * null when the call is not such a retry. A client that declined or cancelled the link cancels
 * the decision; nothing is signed then.
 */
export async function resumeOwnerAsk(ctx: ToolContext): Promise<ToolReply | null> {
  const state = AskStateSchema.safeParse(ctx.state);
  if (!state.success) return null;
  const id = state.data.owner_decision;
  const { decisions } = ctx.window;
  const answer = inputResponse(ctx.inputResponses, LINK_KEY);
  if (answer.kind !== "elicit" || answer.action !== "accept") {
    decisions.cancel(id);
    const reason = answer.kind === "elicit" && answer.action === "decline" ? "declined" : "cancelled";
    throw new TrestleError("E_NOT_CONFIRMED", `your owner did not open the link (${reason}); nothing was signed`, {
      reason,
    });
  }
  ctx.progress("waiting for your owner to decide in the principal window");
  const outcome = await decisions.settled(id, ctx.signal);
  if (outcome === null)
    throw new TrestleError(
      "E_NOT_CONFIRMED",
      "the call was cancelled before your owner decided; nothing was signed from it",
      { reason: "cancelled" },
    );
  switch (outcome.state) {
    case "approved":
      return outcome.result;
    case "failed":
      throw outcome.error;
    case "declined":
      throw new TrestleError("E_NOT_CONFIRMED", "your owner declined in the principal window; nothing was signed", {
        reason: "declined",
      });
    case "cancelled":
      throw new TrestleError("E_NOT_CONFIRMED", "the decision was cancelled; nothing was signed", {
        reason: "cancelled",
      });
    case "expired":
      throw new TrestleError(
        "E_NOT_CONFIRMED",
        "your owner did not decide in time (the link lasts 10 minutes); nothing was signed",
        { reason: "no_answer" },
      );
  }
}
