/** A seat's note to its owner (docs/SPEC.md §5.10) as a chat message: in each language, the seat named, the note as written (none about an e2e room, §5.12), escaped by each platform. */
import { describe, expect, it } from "vitest";
import { formatDiscord } from "../../../src/chat/platforms/discord.js";
import { renderNotification } from "../../../src/chat/render.js";
import { fitsTelegram, formatTelegram } from "../../../src/chat/platforms/telegram.js";
import { LangSchema, NotificationSchema, type Notification } from "../../../src/protocol/index.js";

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

  it.each(LangSchema.options)(
    "carries no content about an end-to-end encrypted room in %s: no topic, no text, only where to read it",
    (lang) => {
      const sealed: Notification = { ...note, topic: "", text: "", e2e: true };
      const message = renderNotification(sealed, KEY, lang, fitsTelegram);
      const text = message.lines.join("\n");
      expect(text).toContain("r-stroller");
      expect(text).toContain("trestle journal");
      expect(text).not.toContain("Seller holds");
      expect(message.lines.every((line) => line.trim() !== "")).toBe(true);
    },
  );

  it("is refused with an empty text unless it is about an e2e room", () => {
    expect(NotificationSchema.safeParse({ ...note, text: "" }).success).toBe(false);
    expect(NotificationSchema.safeParse({ ...note, topic: "", text: "", e2e: true }).success).toBe(true);
  });

  it("is escaped by each platform's formatter", () => {
    const message = renderNotification(note, KEY, "en", fitsTelegram);
    expect(String(formatTelegram(message).text)).toContain("&lt;b&gt;firm&lt;/b&gt;");
    expect(JSON.stringify(formatDiscord(message))).toContain("Seller holds at 2,800");
  });
});
