/**
 * The platform-neutral half of every chat webhook: given a verified, parsed event, do what it
 * asks and return the reply text in the sender's language (docs/SPEC.md §11.5). Commands from an
 * account act only for the owner keys that account is bound to; a redelivered event id does nothing.
 */
import type { Env } from "../../durable-objects/env.js";
import { unwrap } from "../../durable-objects/result.js";
import { t } from "../../src/chat/i18n.js";
import type { Command, Inbound, Sender } from "../../src/chat/inbound.js";
import { shortKey, topicLine } from "../../src/chat/render.js";
import type { CallbackData } from "../../src/chat/callback.js";
import { TrestleError } from "../../src/protocol/errors.js";
import type { Lang } from "../../src/protocol/schemas/owner.js";
import { ApprovalNeededSchema } from "../../src/protocol/schemas/notify.js";
import { tapOutcome, tapReply } from "./approvals.js";
import { directory, ownerStub, tableStubOf } from "./stubs.js";

/** The reply to send back, or null to stay silent. */
export async function handleInbound(env: Env, inbound: Inbound): Promise<string | null> {
  if (inbound.kind === "ignored") return null;
  const { sender } = inbound;
  if (unwrap(await directory(env).seen(sender.eventId))) return null;
  const cmd = inbound.kind === "command" ? inbound.command : null;
  if (cmd?.name === "bind") return bind(env, sender, cmd.code);
  const owners = unwrap(await directory(env).owners(sender.platform, sender.account));
  const lang = sender.lang ?? (await boundLang(env, owners, sender)) ?? "en";
  if (cmd?.name === "help") return t(lang, "reply.help", { platform: sender.platform });
  if (owners.length === 0) return t(lang, "reply.not_bound", { platform: sender.platform });
  if (inbound.kind === "tap") return tap(env, owners, lang, inbound.tap, sender);
  return cmd ? command(env, sender, owners, lang, cmd) : null;
}

async function bind(env: Env, sender: Sender, code: string): Promise<string> {
  const redeemed = unwrap(await directory(env).redeem(sender.platform, sender.account, code));
  const lang = sender.lang ?? (redeemed.outcome === "bound" ? redeemed.lang : "en");
  switch (redeemed.outcome) {
    case "too_many":
      return t(lang, "reply.too_many");
    case "bad":
      return t(lang, "reply.code_bad", { platform: sender.platform });
    case "wrong_platform":
      return t(lang, "reply.code_wrong_platform", { platform: redeemed.platform, here: sender.platform });
    case "bound":
      unwrap(await ownerStub(env, redeemed.owner_key).bind(redeemed.owner_key, { platform: sender.platform, account: sender.account, chat: sender.chat, label: sender.label, lang }));
      return t(lang, "reply.bound", { key: shortKey(redeemed.owner_key) });
  }
}

async function command(env: Env, sender: Sender, owners: string[], lang: Lang, cmd: Command): Promise<string> {
  switch (cmd.name) {
    case "bind":
    case "help":
      return t(lang, "reply.help", { platform: sender.platform });
    case "status": {
      const lines = [];
      for (const key of owners) {
        const s = unwrap(await ownerStub(env, key).summary(key));
        const count = (state: string) => s.tables.filter((x) => x.state === state).length;
        lines.push(t(lang, "reply.status", { key: shortKey(key), channels: s.channels, proven: s.proven, open: count("open"), paused: count("paused") }));
      }
      return lines.join("\n");
    }
    case "tables": {
      const tables = [];
      for (const key of owners) tables.push(...unwrap(await ownerStub(env, key).summary(key)).tables);
      if (tables.length === 0) return t(lang, "reply.tables_none");
      const lines = tables.map((x) => t(lang, "reply.table_line", { table: x.id, state: t(lang, `state.${x.state}`), topic: topicLine(x.topic) }));
      return [t(lang, "reply.tables_head"), ...lines].join("\n");
    }
    case "pause":
    case "resume":
      return control(env, sender, owners, lang, cmd.name, cmd.table);
    case "unbind":
      unwrap(await directory(env).unindex(sender.platform, sender.account));
      for (const key of owners) unwrap(await ownerStub(env, key).unbind(key, sender.platform, sender.account));
      return t(lang, "reply.unbound");
  }
}

async function control(env: Env, sender: Sender, owners: string[], lang: Lang, action: "pause" | "resume", table: string | null): Promise<string> {
  if (table === null) return t(lang, "reply.usage_table", { command: action });
  let failure = new TrestleError("E_FORBIDDEN", "you hold no seat at this table");
  for (const key of owners) {
    try {
      const result = unwrap(await tableStubOf(env, table).controlAttested({ owner_key: key, action, via: sender.platform, event_id: sender.eventId }));
      return t(lang, action === "pause" ? "reply.paused" : "reply.resumed", { table, seq: result.seq });
    } catch (error) {
      if (!(error instanceof TrestleError)) throw error;
      failure = error;
      if (error.code !== "E_FORBIDDEN") break;
    }
  }
  return t(lang, "reply.control_failed", { action, table, message: `${failure.code}: ${failure.message}` });
}

async function tap(env: Env, owners: string[], lang: Lang, data: CallbackData | null, sender: Sender): Promise<string> {
  if (!data) return t(lang, "reply.tap_unknown");
  for (const key of owners) {
    const found = unwrap(await ownerStub(env, key).approval(key, data.ref));
    if (!found) continue;
    const approval = ApprovalNeededSchema.parse(found);
    return tapReply(lang, await tapOutcome(env, key, approval, data.verb, sender));
  }
  return t(lang, "reply.tap_not_yours");
}

async function boundLang(env: Env, owners: string[], sender: Sender): Promise<Lang | undefined> {
  const first = owners[0];
  if (first === undefined) return undefined;
  return unwrap(await ownerStub(env, first).binding(first, sender.platform, sender.account))?.lang;
}
