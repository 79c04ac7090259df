/**
 * Room news as a chat message in the owner's language (docs/CHAT-APPS.md "Room news"): the kind as
 * the title, who acted and what it binds in the words every surface uses for terms
 * (src/text/terms.ts), and for a held message how to approve it. About an end-to-end encrypted
 * room the terms are never in the event: the message says so instead. The item text is cut to
 * ITEM_CHARS here, so the smallest platform limit (Discord's 2000) always leaves room for the amount
 * and a held message's approve command; each platform's formatter escapes and cuts the rest.
 */
import type { RoomNews } from "../protocol/schemas/notify.js";
import type { Lang } from "../protocol/schemas/owner.js";
import { safeLine } from "../text/framing.js";
import { termsText, type TermsWords } from "../text/terms.js";
import { t } from "./i18n.js";
import { ellipsize, type ChatMessage } from "./message.js";

/** The longest item text a room news message quotes; the event keeps it whole. */
const ITEM_CHARS = 300;

/** The message for room news `event` in `lang`, under the table line `head`; `words` are the terms words in `lang`. */
export function newsMessage(event: RoomNews, lang: Lang, head: string, words: TermsWords): ChatMessage {
  const item = event.terms?.text === undefined ? {} : { text: ellipsize(event.terms.text, ITEM_CHARS) };
  const terms = event.terms ? termsText({ ...event.terms, ...item }, words) : t(lang, "news.sealed_terms");
  const seat = event.seat;
  const values = {
    seat,
    terms,
    by: event.by ?? "",
    waiting: (event.waiting ?? []).join(t(lang, "list.sep")),
    reason: event.reason ? t(lang, `nodeal.${event.reason}`) : "",
    kind: event.held ? safeLine(event.held.kind, 32) : "",
    hash: event.held ? event.held.message_sha256.slice(0, 12) : "",
    table: event.table,
  };
  const entry = event.seq === undefined ? [] : [t(lang, "news.entry", { seq: event.seq })];
  return {
    title: t(lang, `title.room_news.${event.news}`),
    lines: [head, t(lang, `news.${event.news}`, values), ...entry],
    actions: [],
  };
}
