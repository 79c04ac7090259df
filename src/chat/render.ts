/**
 * Notifications as neutral chat messages, in the owner's language: effects spelled out in plain
 * words (who, what action, on which resource, with which arguments), approve/reject buttons on
 * approval requests with whether a tap can approve, a record of every tap that did, and who holds
 * which pause after a pause or a lift. The topic
 * is another party's text and stays on the table's line (src/text/framing.ts, pure); an
 * end-to-end encrypted room's events have none, and say so.
 * An approval request is fitted to the platform's limits here (fit-approval.ts), so a tap never
 * approves an effect it did not show; escaping and cutting other messages is the formatters' job.
 * A room that closed with a deal says what the deal binds, in the words every surface uses for
 * terms (src/text/terms.ts) in the owner's language.
 */
import { safeLine } from "../text/framing.js";
import { canonicalize } from "../protocol/encoding/canonical.js";
import type { ApprovalNeeded, DealNotice, Notification, NotifyEffect } from "../protocol/schemas/notify.js";
import type { Lang } from "../protocol/schemas/owner.js";
import {
  CHAT_PLATFORM_NAMES,
  type ChatPlatform,
  type ControlVia,
  type PauseHolder,
} from "../protocol/schemas/control.js";
import { approvalRef, encodeCallback, type TapVerb } from "./callback.js";
import { fitApproval, type ApprovalParts } from "./fit-approval.js";
import { questionMessage } from "./question.js";
import { MESSAGES, t, type MessageKey } from "./i18n.js";
import { auctionDealText, offerText, type TermsWords } from "../text/terms.js";
import { ellipsize, type ChatMessage, type Fits } from "./message.js";
import { newsMessage } from "./render-news.js";
import { groupMessage, groupNewsMessage } from "./render-group.js";

/** A message the owner's DO sends on its own: the test message that proves a new channel. */
export interface ChannelTest {
  type: "channel_bound";
  id: string;
  owner_key: string;
}

/** Anything the outbox can carry. */
export type Outgoing = Notification | ChannelTest;

/** Arguments of an effect listed in a message that cannot show every effect in full are cut to this. */
const ARGS_CHARS = 300;

/** The message for `event` sent to `ownerKey`'s channel in `lang`, an approval request fitted to what `fits` allows. */
export function renderNotification(event: Outgoing, ownerKey: string, lang: Lang, fits: Fits): ChatMessage {
  if (event.type === "channel_bound") {
    return {
      title: t(lang, "title.channel_bound"),
      lines: [t(lang, "line.channel_bound", { key: shortKey(event.owner_key) })],
      actions: [],
    };
  }
  // A market's chat group (render-group.ts): its greeting, in the group's language.
  if (event.type === "group_bound" || event.type === "group_unbound") return groupMessage(event, lang);
  if (event.type === "group_news") return groupNewsMessage([event], lang);
  const head = event.e2e
    ? t(lang, "line.table_e2e", { table: event.table })
    : t(lang, "line.table", { table: event.table, topic: topicLine(event.topic) });
  // Room news (render-news.ts): titled by its kind.
  if (event.type === "room_news") return newsMessage(event, lang, head, termsWords(lang));
  const title = t(lang, `title.${event.type}` as MessageKey);
  // An end-to-end encrypted room's events carry no content (docs/SPEC.md §5.12): say where to read it.
  const said = (text: string) => (event.e2e ? t(lang, "line.e2e") : text);
  switch (event.type) {
    case "approval_needed":
      return fitApproval(approvalParts(event, ownerKey, lang), fits);
    case "floor_to_human":
      return { title, lines: [head, t(lang, "line.floor", { seat: event.seat, round: event.round })], actions: [] };
    case "task_stalled":
      return { title, lines: [head, t(lang, "line.stalled", { task: event.task })], actions: [] };
    case "decision_reached":
      return { title, lines: [head, t(lang, "line.decided", { seat: event.seat }), said(event.body)], actions: [] };
    case "table_closed": {
      const deal = event.deal ? [t(lang, "line.deal", { terms: dealText(event.deal, termsWords(lang)) })] : [];
      return {
        title,
        lines: [head, t(lang, "line.closed", { reason: t(lang, `reason.${event.reason}` as const) }), ...deal],
        actions: [],
      };
    }
    case "table_paused":
    case "table_resumed":
      return {
        title,
        lines: [
          head,
          t(lang, event.type === "table_paused" ? "line.paused" : "line.lifted", {
            owner: event.owner,
            via: viaWords(lang, event.via),
          }),
          ...pausesLines(lang, event.pauses),
        ],
        actions: [],
      };
    case "table_opened":
      return { title, lines: [head], actions: [] };
    case "owner_note":
      return { title, lines: [head, t(lang, "line.owner_note", { seat: event.seat }), said(event.text)], actions: [] };
    case "owner_question":
      return questionMessage(
        event,
        ownerKey,
        lang,
        {
          line: (chars) =>
            event.e2e
              ? head
              : t(lang, "line.table", { table: event.table, topic: ellipsize(topicLine(event.topic), chars) }),
          topicChars: topicLine(event.topic).length,
        },
        fits,
      );
    case "chat_approval": {
      const done = t(lang, event.verdict === "approve" ? "line.chat_approved" : "line.chat_rejected", {
        task: event.task,
        via: platformName(event.via),
        seq: event.seq,
      });
      return { title, lines: [head, done, t(lang, "line.chat_warning")], actions: [] };
    }
  }
}

/** Who holds a pause after a control, when the event says (older events do not). */
function pausesLines(lang: Lang, pauses: readonly PauseHolder[] | undefined): string[] {
  if (pauses === undefined) return [];
  return [
    pauses.length === 0 ? t(lang, "line.no_pauses") : t(lang, "line.pauses", { holders: holdersWords(lang, pauses) }),
  ];
}

/** Every pause holder with how they paused, in `lang`, e.g. "alice (owner key), bob (Telegram)". */
export function holdersWords(lang: Lang, pauses: readonly PauseHolder[]): string {
  return pauses
    .map((p) => t(lang, "pause.holder", { owner: p.owner, via: viaWords(lang, p.via) }))
    .join(t(lang, "list.sep"));
}

/** How a control was made, in `lang`: the owner key, or the chat app by name. */
function viaWords(lang: Lang, via: ControlVia): string {
  return via === "owner" ? t(lang, "via.owner") : platformName(via);
}

/** An approval request in pieces: the complete form says whether a tap counts; the partial one, how to approve by key. */
function approvalParts(event: ApprovalNeeded, ownerKey: string, lang: Lang): ApprovalParts {
  const ref = approvalRef(ownerKey, event.id);
  const approve = {
    label: t(lang, "button.approve"),
    data: encodeCallback({ verb: "approve", ref }),
    style: "approve" as const,
  };
  const reject = {
    label: t(lang, "button.reject"),
    data: encodeCallback({ verb: "reject", ref }),
    style: "reject" as const,
  };
  const topic = topicLine(event.topic);
  const command = signCommand("approve", event.table, event.task);
  const counts =
    event.chat_approve === undefined
      ? []
      : [event.chat_approve ? t(lang, "line.chat_yes") : t(lang, "line.chat_no", { command })];
  return {
    title: t(lang, "title.approval_needed"),
    table: (chars) => t(lang, "line.table", { table: event.table, topic: ellipsize(topic, chars) }),
    topicChars: topic.length,
    task: [
      t(lang, "line.task", { task: event.task }),
      t(lang, "line.proposed", { seat: event.proposer, seq: event.proposal_seq }),
    ],
    effects: event.effects.map((effect) => ({
      full: effectLines(lang, effect, Infinity),
      cut: effectLines(lang, effect, ARGS_CHARS),
    })),
    complete: { last: counts, actions: [approve, reject] },
    partial: {
      more: (count) => t(lang, "line.effects_more", { count }),
      last: t(lang, "line.chat_cut", { total: event.effects.length, command }),
      actions: [reject],
    },
  };
}

/** One effect in plain words, its arguments (canonical JSON) cut to `argsChars`. */
function effectLines(lang: Lang, effect: NotifyEffect, argsChars: number): string[] {
  const lines = [
    `• ${t(lang, "line.effect", { owner: effect.owner, action: effect.action, resource: effect.resource })}`,
  ];
  if (effect.args && Object.keys(effect.args).length > 0) {
    lines.push(`  ${t(lang, "line.effect_args", { args: ellipsize(canonicalize(effect.args), argsChars) })}`);
  }
  return lines;
}

/** The words around terms (src/text/terms.ts) in `lang`. */
function termsWords(lang: Lang): TermsWords {
  const words = MESSAGES[lang];
  return {
    minor: words["terms.minor"],
    item: words["terms.item"],
    expires: words["terms.expires"],
    noExpiry: words["terms.no_expiry"],
    offer: words["terms.offer"],
    auction: words["terms.auction"],
    sealed: words["terms.sealed"],
  };
}

/** What a deal binds, in the words every surface uses: the accepted offer named and in full, or the auction at its price. */
function dealText(deal: DealNotice, words: TermsWords): string {
  return "offer" in deal ? offerText(deal.offer, words) : auctionDealText(deal.auction, words);
}

/**
 * A table's topic as one line of a message. The table's creator wrote it, and the message goes to
 * other owners: on lines of its own it could pass for an effect or for whether a tap counts.
 */
export function topicLine(topic: string): string {
  return safeLine(topic, 500);
}

/** The command that signs `verb` for `task` with the owner key, as replies and messages name it. */
export function signCommand(verb: TapVerb, table: string, task: string): string {
  return `trestle ${verb} ${task} --table ${table}`;
}

/** A chat app's name as people write it. */
export function platformName(platform: ChatPlatform): string {
  return CHAT_PLATFORM_NAMES[platform];
}

/** The first 8 characters of a key, enough to tell one's own keys apart in a chat. */
export function shortKey(key: string): string {
  return `${key.slice(0, 8)}…`;
}
