/** A seat's note to its owner (docs/SPEC.md §5.10) as a chat message: in each language, the seat named, the note as written, escaped by each platform. */
import { describe, expect, it } from "vitest";
import { formatDiscord } from "../../../src/chat/discord.js";
import { renderNotification } from "../../../src/chat/render.js";
import { fitsTelegram, formatTelegram } from "../../../src/chat/telegram.js";
import { LangSchema, type Notification } from "../../../src/protocol/index.js";

const KEY = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
const note: Notification = {
  type: "owner_note",
  id: "r-stroller:note:ben-bot:abcdefghijklmnop",
  table: "r-stroller",
  topic: "A second-hand stroller",
  seat: "ben-bot",
  text: "Seller holds at 2,800 <b>firm</b>. Accept?",
};

describe("an owner_note message", () => {
  it.each(LangSchema.options)("names the seat and carries the note in %s, with no buttons", (lang) => {
    const message = renderNotification(note, KEY, lang, fitsTelegram);
    expect(message.lines.join("\n")).toContain("ben-bot");
    expect(message.lines).toContain(note.text);
    expect(message.actions).toEqual([]);
  });

  it("is escaped by each platform's formatter", () => {
    const message = renderNotification(note, KEY, "en", fitsTelegram);
    expect(String(formatTelegram(message).text)).toContain("&lt;b&gt;firm&lt;/b&gt;");
    expect(JSON.stringify(formatDiscord(message))).toContain("Seller holds at 2,800");
  });
});
