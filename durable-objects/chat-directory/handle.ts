/**
 * The platform-neutral half of every chat webhook: given a verified, parsed event, do what it
 * asks and return the reply text in the sender's language (docs/SPEC.md §11.5). Commands from an
 * account act only for the owner keys that account is bound to; a redelivered event id does nothing.
 * The Worker runs it for each webhook, and the chat directory's alarm for the events a webhook deferred.
 */
import { z } from "zod";
import { unwrap, type Result } from "../result.js";
import { t } from "../../src/chat/i18n.js";
import type { Command, Inbound, Sender } from "../../src/chat/inbound.js";
import { holdersWords, shortKey, signCommand, topicLine } from "../../src/chat/render.js";
import type { CallbackData } from "../../src/chat/callback.js";
import type { HookContext } from "../../src/chat/platforms/platform.js";
import { TrestleError } from "../../src/protocol/errors.js";
import type { ChatPlatform } from "../../src/protocol/schemas/control.js";
import type { Lang } from "../../src/protocol/schemas/owner.js";
import { ApprovalNeededSchema } from "../../src/protocol/schemas/notify.js";
import type { OwnerTable } from "../owner/inbox.js";
import { tapOutcome, tapReply } from "./taps.js";
import { answerFromChat, instructFromChat } from "./owner-chat.js";
import { bindGroupHere, freeStaleGroup, groupGoneHere } from "./group-bind.js";
import { groupCommand, joinHint } from "./group-commands.js";
import type { Directory } from "./calls.js";
import { chatDirectory, ownerObject, tableObject } from "../stubs.js";

/** What an owner's object answers for a tapped ref (OwnerDO.approval), parsed on this side of the RPC. */
const TappedSchema = z.strictObject({ request: ApprovalNeededSchema, approve_offered: z.boolean() });

/** What `platform`'s hook may ask of the relay: handle a verified event, or defer events to the directory's alarm. */
export function hookContext(env: Env, platform: ChatPlatform, dir: Directory = chatDirectory(env)): HookContext {
  return {
    handle: (inbound) => handleInbound(env, inbound, dir),
    defer: async (events) => {
      unwrap(await dir.defer(platform, events));
    },
  };
}

/** The reply to send back, or null to stay silent. */
export async function handleInbound(
  env: Env,
  inbound: Inbound,
  dir: Directory = chatDirectory(env),
): Promise<string | null> {
  if (inbound.kind === "ignored") return null;
  if (inbound.kind === "group_gone")
    return unwrap(await dir.seen(inbound.eventId)) ? null : groupGoneHere(env, dir, inbound);
  const { sender } = inbound;
  if (unwrap(await dir.seen(sender.eventId))) return null;
  const cmd = inbound.kind === "command" ? inbound.command : null;
  if (cmd?.name === "bind") return bind(env, dir, sender, cmd.code);
  const owners = unwrap(await dir.owners(sender.platform, sender.account));
  const lang = sender.lang ?? (await boundLang(env, owners, sender)) ?? "en";
  // In a group an account bound to nobody gets nothing but /join's answer: the bot does not write to strangers, and the group never sees who is bound.
  if (sender.group !== null && owners.length === 0)
    return cmd?.name === "group" && cmd.verb === "/join"
      ? joinHint(dir, { ...sender, group: sender.group }, lang)
      : null;
  if (cmd?.name === "help") return t(lang, "reply.help", { platform: sender.platform });
  if (owners.length === 0) return t(lang, "reply.not_bound", { platform: sender.platform });
  if (inbound.kind === "tap") {
    const data = inbound.tap;
    return data?.verb === "choose"
      ? answerFromChat(env, owners, lang, sender, data.ref, { choice: data.choice })
      : tap(env, owners, lang, data, sender);
  }
  return cmd ? command(env, dir, sender, owners, lang, cmd) : null;
}

async function bind(env: Env, dir: Directory, sender: Sender, code: string): Promise<string> {
  let redeemed = unwrap(await dir.redeem(sender.platform, sender.account, code, sender.group));
  if (
    redeemed.outcome === "group_taken" &&
    sender.group !== null &&
    (await freeStaleGroup(env, dir, sender.platform, sender.group, redeemed.market))
  ) {
    redeemed = unwrap(await dir.redeem(sender.platform, sender.account, code, sender.group));
  }
  const lang = sender.lang ?? (redeemed.outcome === "bound" || redeemed.outcome === "group" ? redeemed.lang : "en");
  switch (redeemed.outcome) {
    case "too_many":
      return t(lang, "reply.too_many");
    case "bad":
      return t(lang, "reply.code_bad", { platform: sender.platform });
    case "wrong_platform":
      return t(lang, "reply.code_wrong_platform", { platform: redeemed.platform, here: sender.platform });
    case "in_group":
      return t(lang, "group.reply.owner_code_in_group");
    case "group_code_private":
      return t(lang, "group.reply.code_in_private", { table: redeemed.market });
    case "group_taken":
      return t(lang, "group.reply.taken", { table: redeemed.market });
    case "group":
      return bindGroupHere(env, dir, { ...sender, group: sender.group! }, redeemed, lang);
    case "bound":
      unwrap(
        await ownerObject(env, redeemed.owner_key).bind(redeemed.owner_key, {
          platform: sender.platform,
          account: sender.account,
          chat: sender.chat,
          label: sender.label,
          lang,
        }),
      );
      return t(lang, "reply.bound", { key: shortKey(redeemed.owner_key) });
  }
}

async function command(
  env: Env,
  dir: Directory,
  sender: Sender,
  owners: string[],
  lang: Lang,
  cmd: Command,
): Promise<string | null> {
  switch (cmd.name) {
    case "bind":
    case "help":
      return t(lang, "reply.help", { platform: sender.platform });
    case "status": {
      const lines = [];
      for (const key of owners) {
        const s = unwrap(await ownerObject(env, key).summary(key));
        const count = (state: string) => s.tables.filter((x) => x.state === state).length;
        lines.push(
          t(lang, "reply.status", {
            key: shortKey(key),
            channels: s.channels,
            proven: s.proven,
            open: count("open"),
            paused: count("paused"),
            pending: s.pending,
          }),
        );
        for (const x of s.tables)
          if (x.state === "paused" && x.pauses.length > 0)
            lines.push(t(lang, "reply.status_paused", { table: x.id, holders: holdersWords(lang, x.pauses) }));
      }
      return lines.join("\n");
    }
    case "tables": {
      const tables = [];
      for (const key of owners) tables.push(...unwrap(await ownerObject(env, key).summary(key)).tables);
      if (tables.length === 0) return t(lang, "reply.tables_none");
      const state = (x: OwnerTable) =>
        x.state === "paused" && x.pauses.length > 0
          ? t(lang, "state.paused_by", { holders: holdersWords(lang, x.pauses) })
          : t(lang, `state.${x.state}`);
      const lines = tables.map((x) =>
        t(lang, "reply.table_line", { table: x.id, state: state(x), topic: topicLine(x.topic) }),
      );
      return [t(lang, "reply.tables_head"), ...lines].join("\n");
    }
    case "pause":
    case "resume":
      return control(env, sender, owners, lang, cmd.name, cmd.table);
    case "answer":
      return answerFromChat(env, owners, lang, sender, cmd.ref, { text: cmd.text });
    case "instruct":
      return instructFromChat(env, owners, lang, sender, cmd.seat, cmd.table, cmd.text);
    case "group":
      return sender.group === null
        ? t(lang, "group.reply.in_group")
        : groupCommand(env, dir, { ...sender, group: sender.group }, owners, lang, cmd);
    case "unbind":
      unwrap(await dir.unindex(sender.platform, sender.account));
      for (const key of owners) unwrap(await ownerObject(env, key).unbind(key, sender.platform, sender.account));
      return t(lang, "reply.unbound");
  }
}

async function control(
  env: Env,
  sender: Sender,
  owners: string[],
  lang: Lang,
  action: "pause" | "resume",
  table: string | null,
): Promise<string> {
  if (table === null) return t(lang, "reply.usage_table", { command: action });
  let failure = new TrestleError("E_FORBIDDEN", "you hold no seat at this table");
  for (const key of owners) {
    try {
      const result = unwrap(
        await tableObject(env, table).controlAttested({
          owner_key: key,
          action,
          via: sender.platform,
          event_id: sender.eventId,
        }),
      );
      return t(lang, action === "pause" ? "reply.paused" : "reply.resumed", { table, seq: result.seq });
    } catch (error) {
      if (!(error instanceof TrestleError)) throw error;
      failure = error;
      if (error.code !== "E_FORBIDDEN") break;
    }
  }
  return t(lang, "reply.control_failed", { action, table, message: `${failure.code}: ${failure.message}` });
}

/**
 * A tap names an approval request by its ref among those sent to the owner keys this account is
 * bound to. Approve counts only from a message that offered it (one that showed every effect in
 * full): a crafted `t1.a.<ref>` from a message with Reject alone records nothing. A ref found
 * nowhere is unknown or has expired (the owner's object keeps its newest 1000 events).
 */
async function tap(env: Env, owners: string[], lang: Lang, data: CallbackData | null, sender: Sender): Promise<string> {
  if (!data) return t(lang, "reply.tap_unknown");
  for (const key of owners) {
    const found = TappedSchema.nullable().parse(
      unwrap(await ownerObject(env, key).approval(key, data.ref, sender.platform, sender.chat)),
    );
    if (!found) continue;
    const approval = found.request;
    if (data.verb === "approve" && !found.approve_offered) {
      return t(lang, "reply.tap_not_shown", { command: signCommand("approve", approval.table, approval.task) });
    }
    return tapReply(lang, await tapOutcome(env, key, approval, data.verb, sender));
  }
  return t(lang, "reply.tap_unknown");
}

async function boundLang(env: Env, owners: string[], sender: Sender): Promise<Lang | undefined> {
  const first = owners[0];
  if (first === undefined) return undefined;
  return unwrap(await ownerObject(env, first).binding(first, sender.platform, sender.account))?.lang;
}
