/**
 * Answers and instructions from a bound chat account (docs/SPEC.md §5.14, decision 0413). A tap on
 * a choice or an `/answer <ref> <text>` names a question by its ref among the questions sent to the
 * owner keys this account is bound to; the table then records the answer relay-attested
 * (`verified: false`, `via` the platform) and refuses what it must (expired, already answered, a
 * choice not offered, an e2e room, an owner who does not hold the seat). `/instruct` reaches one of
 * the owner's seats the same way. Every refusal is a reply naming its code; nothing else changes.
 */
import { unwrap } from "../result.js";
import { t } from "../../src/chat/i18n.js";
import type { Sender } from "../../src/chat/inbound.js";
import { platformName } from "../../src/chat/render.js";
import { safeLine } from "../../src/text/framing.js";
import { TrestleError } from "../../src/protocol/errors.js";
import { OwnerQuestionNoticeSchema } from "../../src/protocol/schemas/notify.js";
import type { Lang } from "../../src/protocol/schemas/owner.js";
import { ownerObject, tableObject } from "../stubs.js";

/** What an answer from chat gives: a choice's index (a tap) or text (a command or a reply). */
export type ChatAnswerValue = { choice: number } | { text: string };

/** Records `value` as the answer to the question `ref` names, for the first bound owner key that received it; the reply in `lang`. */
export async function answerFromChat(
  env: Env,
  owners: readonly string[],
  lang: Lang,
  sender: Sender,
  ref: string | null,
  value: ChatAnswerValue,
): Promise<string> {
  if (ref === null) return t(lang, "reply.answer_usage");
  for (const key of owners) {
    const question = OwnerQuestionNoticeSchema.nullable().parse(unwrap(await ownerObject(env, key).question(key, ref)));
    if (!question) continue;
    try {
      const given = unwrap(
        await tableObject(env, question.table).answerAttested({
          question: question.question,
          owner_key: key,
          via: sender.platform,
          value,
        }),
      );
      return t(lang, "reply.answered", {
        seat: question.seat,
        table: question.table,
        value: safeLine(given.value, 64),
        via: platformName(sender.platform),
      });
    } catch (error) {
      return t(lang, "reply.answer_failed", { message: refusal(error) });
    }
  }
  const unknown = new TrestleError(
    "E_UNKNOWN_QUESTION",
    "no question sent to the owner this account is bound to has this code (it is another owner's, unknown, or too old)",
  );
  return t(lang, "reply.answer_failed", { message: refusal(unknown) });
}

/** Records `text` as an instruction to `seat` (at `table`, or at the owners' one open table) for the bound owner key that holds it; the reply in `lang`. */
export async function instructFromChat(
  env: Env,
  owners: readonly string[],
  lang: Lang,
  sender: Sender,
  seat: string | null,
  table: string | null,
  text: string,
): Promise<string> {
  if (seat === null) return t(lang, "reply.instruct_usage");
  const at = table ?? (await onlyOpenTable(env, owners));
  if (at === null) return t(lang, "reply.instruct_usage");
  let failure = new TrestleError("E_FORBIDDEN", `seat ${seat} is not a seat of the owner this account is bound to`);
  for (const key of owners) {
    try {
      const { n } = unwrap(
        await tableObject(env, at).instructAttested({ seat, owner_key: key, via: sender.platform, text }),
      );
      return t(lang, "reply.instructed", { seat, table: at, n, via: platformName(sender.platform) });
    } catch (error) {
      if (!(error instanceof TrestleError)) throw error;
      failure = error;
      // Another bound key may hold the seat; any other refusal is the same for every key.
      if (error.code !== "E_FORBIDDEN") break;
    }
  }
  return t(lang, "reply.instruct_failed", { seat, message: refusal(failure) });
}

/** The one table not closed among the bound owners' tables, or null when there are none or several. */
async function onlyOpenTable(env: Env, owners: readonly string[]): Promise<string | null> {
  const open = new Set<string>();
  for (const key of owners)
    for (const x of unwrap(await ownerObject(env, key).summary(key)).tables) if (x.state !== "closed") open.add(x.id);
  return open.size === 1 ? [...open][0]! : null;
}

/** A refusal as the reply names it: its code and message. */
function refusal(error: unknown): string {
  if (!(error instanceof TrestleError)) throw error;
  return `${error.code}: ${error.message}`;
}
