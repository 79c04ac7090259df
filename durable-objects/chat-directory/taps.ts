/**
 * What an approve/reject tap does (docs/SPEC.md §5.6, §11.6). A tap is not an owner signature:
 * whoever runs the relay or holds the bot token could forge one. Inbound handling (handle.ts) has
 * found the approval request the button names among the requests sent to an owner key this chat
 * account is bound to, in a message that offered Approve; that binding is the relay's attestation. The table then records the tap as a
 * relay-attested approval (`via`) if its policy allows: a reject always, an approve only where the
 * owner's chat_approve rules cover the task. Otherwise the tapper learns how to sign instead.
 */
import { unwrap } from "../result.js";
import type { TapVerb } from "../../src/chat/callback.js";
import { t } from "../../src/chat/i18n.js";
import type { Sender } from "../../src/chat/inbound.js";
import { platformName, signCommand } from "../../src/chat/render.js";
import { TrestleError } from "../../src/protocol/errors.js";
import type { ChatPlatform } from "../../src/protocol/schemas/control.js";
import type { ApprovalNeeded } from "../../src/protocol/schemas/notify.js";
import type { Lang } from "../../src/protocol/schemas/owner.js";
import {
  ChatRefusalSchema,
  TaskStatusSchema,
  type ChatRefusal,
  type TaskStatus,
} from "../../src/protocol/schemas/task.js";
import { tableObject } from "../stubs.js";

/** What came of a tap, for the reply. */
export type TapOutcome =
  | { kind: "recorded"; verb: TapVerb; table: string; task: string; seq: number; via: ChatPlatform }
  | { kind: "needs_signature"; verb: TapVerb; table: string; task: string; reason: ChatRefusal }
  | { kind: "already"; verb: TapVerb; table: string; task: string; state: TaskStatus }
  | { kind: "failed"; verb: TapVerb; table: string; task: string; error: TrestleError };

/** Asks the table to record `sender`'s tap of `verb` on `approval`, sent to `ownerKey`. */
export async function tapOutcome(
  env: Env,
  ownerKey: string,
  approval: ApprovalNeeded,
  verb: TapVerb,
  sender: Sender,
): Promise<TapOutcome> {
  const at = { verb, table: approval.table, task: approval.task };
  try {
    const input = {
      owner_key: ownerKey,
      task: approval.task,
      verdict: verb,
      via: sender.platform,
      event_id: sender.eventId,
    };
    const result = unwrap(await tableObject(env, approval.table).approveAttested(input));
    return { kind: "recorded", ...at, seq: result.seq, via: sender.platform };
  } catch (error) {
    if (!(error instanceof TrestleError)) throw error;
    const reason = ChatRefusalSchema.safeParse(error.details?.reason);
    if (error.code === "E_NEEDS_SIGNATURE" && reason.success)
      return { kind: "needs_signature", ...at, reason: reason.data };
    const state = TaskStatusSchema.safeParse(error.details?.state);
    if (error.code === "E_TASK_STATE" && state.success) return { kind: "already", ...at, state: state.data };
    return { kind: "failed", ...at, error };
  }
}

/** The reply to the tapper, in `lang`, naming how to sign when the tap could not approve. */
export function tapReply(lang: Lang, outcome: TapOutcome): string {
  const { table, task } = outcome;
  switch (outcome.kind) {
    case "recorded":
      return t(lang, outcome.verb === "approve" ? "reply.tap_approved" : "reply.tap_rejected", {
        table,
        task,
        seq: outcome.seq,
        via: platformName(outcome.via),
      });
    case "needs_signature":
      return t(lang, "reply.tap_needs_signature", {
        command: signCommand(outcome.verb, table, task),
        why: t(lang, `why.${outcome.reason}`),
      });
    case "already":
      return t(lang, "reply.tap_already", { task, state: t(lang, `task.${outcome.state}`) });
    case "failed":
      return t(lang, "reply.tap_failed", { message: `${outcome.error.code}: ${outcome.error.message}` });
  }
}
