/**
 * What a market's chat group is sent, in the group's language (docs/CHAT-APPS.md "Groups"): the
 * greeting when it is bound (the market, its topic, how a member posts from here). Nothing about
 * an owner's approvals, notes, questions, mandates or rooms is ever rendered here: a group's
 * audience receives no such event (src/protocol/reading/group-events.ts).
 */
import type { GroupBoundNotice, GroupUnboundNotice } from "../protocol/schemas/notify.js";
import type { Lang } from "../protocol/schemas/owner.js";
import { safeLine } from "../text/framing.js";
import { t } from "./i18n.js";
import type { ChatMessage } from "./message.js";

/** The greeting a newly bound group gets (an unbinding is silent, and says only which market let the group go). */
export function groupMessage(event: GroupBoundNotice | GroupUnboundNotice, lang: Lang): ChatMessage {
  const market = t(lang, "group.bound", { table: event.table, topic: safeLine(event.topic, 200) });
  return { title: t(lang, "title.group_bound"), lines: event.type === "group_bound" ? [market, t(lang, "group.how")] : [market], actions: [] };
}
