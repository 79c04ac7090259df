/**
 * Each chat platform's documented message limits, checked on the request body the relay sends and
 * counted as that platform counts, and that body read back as its reader sees it: the text after
 * the platform's markup is parsed, and which buttons it carries. The numbers and the ways of
 * counting are written out here again, from the platforms' docs and sources, so a test never trusts
 * the formatter's own constants or measures (the loopback fake refuses with these counts too).
 *
 * - Telegram (https://core.telegram.org/bots/api#sendmessage, #inlinekeyboardbutton): text
 *   "1-4096 characters after entities parsing": the Bot API parses the HTML (tags removed, &lt;
 *   &gt; &amp; &quot; and numeric entities decoded) and TDLib compares `utf8_length` of the result,
 *   Unicode code points, to 4096 (td/telegram/MessageContent.cpp); callback_data "1-64 bytes";
 *   reply_markup is an InlineKeyboardMarkup or a ForceReply (`force_reply: true`), one or the other.
 * - LINE (https://developers.line.biz/en/reference/messaging-api/#send-push-message, #text-message,
 *   #template-messages, #buttons, #confirm, #postback-action): 1-5 messages; text max 5000; altText
 *   max 400; confirm text max 240 with 2 actions; buttons text max 160 (no image or title), 1-4
 *   actions; action label max 20; postback data max 300, displayText max 300; a quick reply
 *   (#quick-reply, #items-object) at most 13 items, each `type: "action"`. Text is counted in UTF-16 code units, the
 *   template texts and action labels in grapheme clusters
 *   (https://developers.line.biz/en/docs/messaging-api/text-character-count/).
 * - Discord (https://discord.com/developers/docs/resources/message#create-message,
 *   #embed-object-embed-limits; https://discord.com/developers/docs/components/reference#button,
 *   #action-row): content max 2000; at most 10 embeds, 6000 characters in all, title 256,
 *   description 4096; at most 5 action rows of at most 5 buttons; label max 80; custom_id max 100.
 *   Strings are counted as sent (markdown escapes included) in Unicode code points: the API is
 *   Python 3 and counts with `len` (discord/discord-api-docs#1315).
 */
import type { ChatPlatform } from "../../src/protocol/index.js";

type Json = Record<string, any>;

/** Unicode code points in `text` (a surrogate pair is one). */
function codePoints(text: string): number {
  return [...text].length;
}

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/** Grapheme clusters in `text` (an emoji with its modifiers is one). */
function clusters(text: string): number {
  return [...graphemes.segment(text)].length;
}

/**
 * The length `platform` counts for a message's text as sent: Telegram's sendMessage `text` (parsed
 * as HTML when `html`) in code points, LINE's text message in UTF-16 code units, Discord's
 * `content` (escapes included) in code points.
 */
export function textChars(platform: ChatPlatform, text: string, html = true): number {
  if (platform === "telegram") return codePoints(html ? telegramVisible(text) : text);
  if (platform === "line") return text.length;
  return codePoints(text);
}

/** The length of the text a message body carries (sendMessage `text`, the push's text message, `content`), as its platform counts it. */
export function bodyChars(platform: ChatPlatform, body: Json): number {
  if (platform === "telegram") return textChars("telegram", String(body.text ?? ""), body.parse_mode === "HTML");
  if (platform === "line") return textChars("line", String((body.messages as Json[])[0]!.text));
  return textChars("discord", String(body.content ?? ""));
}

/** Every way `body` (a sendMessage, push or create-message body) breaks `platform`'s limits; empty when none. */
export function limitViolations(platform: ChatPlatform, body: Json): string[] {
  const out: string[] = [];
  const check = (ok: boolean, what: string) => {
    if (!ok) out.push(what);
  };
  if (platform === "telegram") {
    const chars = bodyChars("telegram", body);
    check(chars >= 1 && chars <= 4096, `text has ${chars} characters after entities parsing`);
    const markup = body.reply_markup as Json | undefined;
    if (markup !== undefined) {
      const kinds = ["inline_keyboard", "force_reply"].filter((k) => k in markup);
      check(
        kinds.length === 1 && (markup.force_reply === undefined || markup.force_reply === true),
        `reply_markup ${JSON.stringify(Object.keys(markup))}`,
      );
    }
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
      if (m.type === "text")
        check(textChars("line", String(m.text)) <= 5000, `text of ${textChars("line", String(m.text))} characters`);
      const items = (m.quickReply?.items ?? []) as Json[];
      check(items.length <= 13, `quick reply of ${items.length} items`);
      for (const item of items) {
        const a = item.action as Json;
        check(item.type === "action" && a.type === "postback", `quick reply item ${item.type}/${a?.type}`);
        check(clusters(String(a.label)) <= 20, `quick reply label of ${clusters(String(a.label))} characters`);
        check(String(a.data).length <= 300, `postback data of ${String(a.data).length} characters`);
        check(
          a.displayText === undefined || String(a.displayText).length <= 300,
          `displayText of ${String(a.displayText).length} characters`,
        );
      }
      if (m.type !== "template") continue;
      check(String(m.altText).length <= 400, `altText of ${String(m.altText).length} characters`);
      const template = m.template as Json;
      const actions = (template.actions ?? []) as Json[];
      if (template.type === "confirm") {
        check(clusters(String(template.text)) <= 240, `confirm text of ${clusters(String(template.text))} characters`);
        check(actions.length === 2, `confirm template with ${actions.length} actions`);
      } else {
        check(template.type === "buttons", `template type ${template.type}`);
        check(clusters(String(template.text)) <= 160, `buttons text of ${clusters(String(template.text))} characters`);
        check(actions.length >= 1 && actions.length <= 4, `buttons template with ${actions.length} actions`);
      }
      for (const a of actions) {
        check(clusters(String(a.label)) <= 20, `action label of ${clusters(String(a.label))} characters`);
        check(String(a.data).length <= 300, `postback data of ${String(a.data).length} characters`);
      }
    }
    return out;
  }
  const content = bodyChars("discord", body);
  check(content <= 2000, `content of ${content} characters`);
  const embeds = (body.embeds ?? []) as Json[];
  check(embeds.length <= 10, `${embeds.length} embeds`);
  const embedChars = embeds.reduce(
    (n, e) => n + codePoints(String(e.title ?? "")) + codePoints(String(e.description ?? "")),
    0,
  );
  check(embedChars <= 6000, `embeds of ${embedChars} characters`);
  for (const e of embeds)
    check(
      codePoints(String(e.title ?? "")) <= 256 && codePoints(String(e.description ?? "")) <= 4096,
      "an embed's title or description too long",
    );
  const rows = (body.components ?? []) as Json[];
  check(rows.length <= 5, `${rows.length} action rows`);
  for (const row of rows) {
    const buttons = (row.components ?? []) as Json[];
    check(buttons.length <= 5, `${buttons.length} buttons in a row`);
    for (const b of buttons) {
      check(codePoints(String(b.label ?? "")) <= 80, `label of ${codePoints(String(b.label ?? ""))} characters`);
      check(
        codePoints(String(b.custom_id ?? "")) <= 100,
        `custom_id of ${codePoints(String(b.custom_id ?? ""))} characters`,
      );
    }
  }
  return out;
}

/** The message's text as its reader sees it: Telegram's HTML parsed, Discord's markdown escapes undone, LINE's text message. */
export function visibleText(platform: ChatPlatform, body: Json): string {
  if (platform === "telegram") return telegramVisible(String(body.text));
  if (platform === "line") return String((body.messages as Json[])[0]!.text);
  return String(body.content)
    .replace(/^\*\*(.*?)\*\*\n/, "$1\n")
    .replace(/\\(.)/g, "$1");
}

/** The data of the buttons a message carries, in order (callback_data, postback data of template actions and quick replies, custom_id). */
export function buttonData(platform: ChatPlatform, body: Json): string[] {
  if (platform === "telegram")
    return ((body.reply_markup?.inline_keyboard ?? []).flat() as Json[]).map((b) => String(b.callback_data));
  if (platform === "line") {
    const actions = ((body.messages ?? []) as Json[]).flatMap((m) => [
      ...((m.template?.actions ?? []) as Json[]),
      ...((m.quickReply?.items ?? []) as Json[]).map((i) => i.action as Json),
    ]);
    return actions.map((a) => String(a.data));
  }
  return ((body.components ?? []) as Json[])
    .flatMap((row) => (row.components ?? []) as Json[])
    .map((b) => String(b.custom_id));
}

/** The verbs of the buttons a message carries, in order ("approve", "reject"). */
export function buttonVerbs(platform: ChatPlatform, body: Json): string[] {
  return buttonData(platform, body).map((d) =>
    d.startsWith("t1.a.") ? "approve" : d.startsWith("t1.r.") ? "reject" : d,
  );
}

/** Telegram HTML as the Bot API parses it: tags removed, the named entities it supports and numeric ones decoded, in one pass. */
function telegramVisible(html: string): string {
  const named: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };
  return html
    .replace(/<[^>]*>/g, "")
    .replace(/&(?:(lt|gt|amp|quot)|#([0-9]+)|#x([0-9a-fA-F]+));/g, (_, name?: string, dec?: string, hex?: string) =>
      name ? named[name]! : String.fromCodePoint(dec ? parseInt(dec, 10) : parseInt(hex!, 16)),
    );
}
