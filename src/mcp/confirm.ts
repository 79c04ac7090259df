/**
 * Asking the owner in person before this server signs something a model asked for (MCP form
 * elicitation): an approval, a rejection, a table's deletion. Only an explicit yes passes; a client
 * that cannot elicit, a decline, a cancel or no answer is E_NOT_CONFIRMED (`details.reason`), and
 * nothing is signed.
 */
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { TrestleError } from "../protocol/index.js";
import type { ToolContext } from "./tool.js";

/** What to ask: the message shown, the checkbox's label, and what is left unsigned on a no (for the error). */
export interface OwnerAsk {
  message: string;
  field: string;
  /** "for task 12.tao", "to delete table t-1": ends the sentence "nothing was signed …". */
  unsigned: string;
  /** The progress note while the owner is asked. */
  progress: string;
}

/** Throws E_NOT_CONFIRMED (`no_elicitation`) when the connected client cannot ask the owner at all: checked before anything else is done. */
export function requireElicitation(ctx: ToolContext, unsigned: string): void {
  if (!ctx.canElicit()) {
    throw new TrestleError("E_NOT_CONFIRMED", `this MCP client cannot ask your owner (no elicitation), so nothing was signed ${unsigned}`, { reason: "no_elicitation" });
  }
}

/** Resolves only when the owner ticked the box and accepted; throws E_NOT_CONFIRMED otherwise. */
export async function confirmWithOwner(ctx: ToolContext, ask: OwnerAsk): Promise<void> {
  requireElicitation(ctx, ask.unsigned);
  let answer;
  ctx.progress(ask.progress);
  try {
    answer = await ctx.elicit({
      mode: "form",
      message: ask.message,
      requestedSchema: { type: "object", properties: { confirm: { type: "boolean", title: ask.field, default: false } }, required: ["confirm"] },
    });
  } catch (error) {
    const why = error instanceof McpError ? `the request to your owner failed (${error.message})` : "the request to your owner failed";
    throw new TrestleError("E_NOT_CONFIRMED", `${why}; nothing was signed ${ask.unsigned}`, { reason: "no_answer" });
  }
  if (answer.action === "accept" && answer.content?.confirm === true) return;
  const reason = answer.action === "accept" ? "not_confirmed" : answer.action === "decline" ? "declined" : "cancelled";
  throw new TrestleError("E_NOT_CONFIRMED", `your owner did not confirm (${reason}); nothing was signed ${ask.unsigned}`, { reason });
}
