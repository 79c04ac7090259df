/**
 * Each chat platform's documented message limits, checked on the request body the relay sends, and
 * that body read back as its reader sees it: the text after the platform's markup is parsed, and
 * which buttons it carries. The numbers are written out here again, from the platforms' docs, so a
 * test never trusts the formatter's own constants.
 *
 * - Telegram (https://core.telegram.org/bots/api#sendmessage, #inlinekeyboardbutton): text
 *   "1-4096 characters after entities parsing"; callback_data "1-64 bytes".
 * - LINE (https://developers.line.biz/en/reference/messaging-api/#send-push-message, #text-message,
 *   #template-messages, #buttons, #confirm, #postback-action): 1-5 messages; text max 5000; altText
 *   max 400; confirm text max 240 with 2 actions; buttons text max 160 (no image or title), 1-4
 *   actions; action label max 20; postback data max 300.
 * - Discord (https://discord.com/developers/docs/resources/message#create-message,
 *   #embed-object-embed-limits; https://discord.com/developers/docs/components/reference#button,
 *   #action-row): content max 2000; at most 10 embeds, 6000 characters in all, title 256,
 *   description 4096; at most 5 action rows of at most 5 buttons; label max 80; custom_id max 100.
 */
import type { ChatPlatform } from "../../src/protocol/index.js";

type Json = Record<string, any>;

/** Every way `body` (a sendMessage, push or create-message body) breaks `platform`'s limits; empty when none. */
export function limitViolations(platform: ChatPlatform, body: Json): string[] {
  const out: string[] = [];
  const check = (ok: boolean, what: string) => {
    if (!ok) out.push(what);
  };
  if (platform === "telegram") {
    const text = telegramVisible(String(body.text ?? ""));
    check(text.length >= 1 && text.length <= 4096, `text has ${text.length} characters after entities parsing`);
    for (const button of (body.reply_markup?.inline_keyboard ?? []).flat() as Json[]) {
      const bytes = new TextEncoder().encode(String(button.callback_data ?? "")).length;
      check(bytes >= 1 && bytes <= 64, `callback_data of ${bytes} bytes`);
    }
    return out;
  }
  if (platform === "line") {
    const messages = (body.messages ?? []) as Json[];
    check(messages.length >= 1 && messages.length <= 5, `${messages.length} messages in one push`);
    for (const m of messages) {
      if (m.type === "text") check(String(m.text).length <= 5000, `text of ${String(m.text).length} characters`);
      if (m.type !== "template") continue;
      check(String(m.altText).length <= 400, `altText of ${String(m.altText).length} characters`);
      const template = m.template as Json;
      const actions = (template.actions ?? []) as Json[];
      if (template.type === "confirm") {
        check(String(template.text).length <= 240, `confirm text of ${String(template.text).length} characters`);
        check(actions.length === 2, `confirm template with ${actions.length} actions`);
      } else {
        check(template.type === "buttons", `template type ${template.type}`);
        check(String(template.text).length <= 160, `buttons text of ${String(template.text).length} characters`);
        check(actions.length >= 1 && actions.length <= 4, `buttons template with ${actions.length} actions`);
      }
      for (const a of actions) {
        check(String(a.label).length <= 20, `action label of ${String(a.label).length} characters`);
        check(String(a.data).length <= 300, `postback data of ${String(a.data).length} characters`);
      }
    }
    return out;
  }
  check(String(body.content ?? "").length <= 2000, `content of ${String(body.content ?? "").length} characters`);
  const embeds = (body.embeds ?? []) as Json[];
  check(embeds.length <= 10, `${embeds.length} embeds`);
  const embedChars = embeds.reduce((n, e) => n + String(e.title ?? "").length + String(e.description ?? "").length, 0);
  check(embedChars <= 6000, `embeds of ${embedChars} characters`);
  for (const e of embeds) check(String(e.title ?? "").length <= 256 && String(e.description ?? "").length <= 4096, "an embed's title or description too long");
  const rows = (body.components ?? []) as Json[];
  check(rows.length <= 5, `${rows.length} action rows`);
  for (const row of rows) {
    const buttons = (row.components ?? []) as Json[];
    check(buttons.length <= 5, `${buttons.length} buttons in a row`);
    for (const b of buttons) {
      check(String(b.label ?? "").length <= 80, `label of ${String(b.label ?? "").length} characters`);
      check(String(b.custom_id ?? "").length <= 100, `custom_id of ${String(b.custom_id ?? "").length} characters`);
    }
  }
  return out;
}

/** The message's text as its reader sees it: Telegram's HTML parsed, Discord's markdown escapes undone, LINE's text message. */
export function visibleText(platform: ChatPlatform, body: Json): string {
  if (platform === "telegram") return telegramVisible(String(body.text));
  if (platform === "line") return String((body.messages as Json[])[0]!.text);
  return String(body.content).replace(/^\*\*(.*?)\*\*\n/, "$1\n").replace(/\\(.)/g, "$1");
}

/** The data of the buttons a message carries, in order (callback_data, postback data, custom_id). */
export function buttonData(platform: ChatPlatform, body: Json): string[] {
  if (platform === "telegram") return ((body.reply_markup?.inline_keyboard ?? []).flat() as Json[]).map((b) => String(b.callback_data));
  if (platform === "line") return ((body.messages ?? []) as Json[]).flatMap((m) => (m.template?.actions ?? []) as Json[]).map((a) => String(a.data));
  return ((body.components ?? []) as Json[]).flatMap((row) => (row.components ?? []) as Json[]).map((b) => String(b.custom_id));
}

/** The verbs of the buttons a message carries, in order ("approve", "reject"). */
export function buttonVerbs(platform: ChatPlatform, body: Json): string[] {
  return buttonData(platform, body).map((d) => (d.startsWith("t1.a.") ? "approve" : d.startsWith("t1.r.") ? "reject" : d));
}

function telegramVisible(html: string): string {
  return html.replace(/<\/?b>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}
