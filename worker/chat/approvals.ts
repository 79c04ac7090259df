/**
 * What an approve/reject tap does (docs/SPEC.md §11.6). A tap is not an owner signature: whoever
 * runs the relay or holds the bot token could forge one. Until the commit gateway lands
 * (TODO(#3)), every tap is answered with how to approve by signature; then a tap becomes a
 * relay-attested approval (`via`) only where the owner's config lists that resource and action
 * under `chat_approve`, and this function is where that check plugs in.
 */
import type { TapVerb } from "../../src/chat/callback.js";
import type { ApprovalNeeded } from "../../src/protocol/schemas/notify.js";

/** The result of a tap. */
export type TapOutcome = { kind: "needs_signature"; verb: TapVerb; table: string; task: string };

/** What tapping `verb` on `approval` does now. */
export function tapOutcome(approval: ApprovalNeeded, verb: TapVerb): TapOutcome {
  return { kind: "needs_signature", verb, table: approval.table, task: approval.task };
}
