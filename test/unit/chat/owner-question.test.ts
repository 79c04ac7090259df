/** A seat's question to its owner (docs/SPEC.md §5.14) as a chat message: in each language, the seat, the question, its choices and how to answer by key; no content about an e2e room. */
import { describe, expect, it } from "vitest";
import { renderNotification } from "../../../src/chat/render.js";
import { fitsTelegram } from "../../../src/chat/platforms/telegram.js";
import { LangSchema, NotificationSchema, type Notification } from "../../../src/protocol/index.js";

const KEY = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
const question: Notification = {
  type: "owner_question",
  id: "r-stroller:question:abcdefghijklmnop",
  table: "r-stroller",
  topic: "A second-hand stroller",
  seat: "ben-bot",
  question: "abcdefghijklmnop",
  text: "Seller holds at 2,800. Accept?",
  choices: ["accept", "hold"],
  deadline: Date.UTC(2026, 11, 2, 3, 0),
};

describe("an owner_question message", () => {
  it.each(LangSchema.options)("names the seat, the question, its choices and the command that answers it in %s", (lang) => {
    const text = renderNotification(question, KEY, lang, fitsTelegram).lines.join("\n");
    expect(text).toContain("ben-bot");
    expect(text).toContain("Seller holds at 2,800. Accept?");
    expect(text).toContain("accept | hold");
    expect(text).toContain("trestle answer abcdefghijklmnop --table r-stroller");
    expect(text).toContain("2026-12-02T03:00:00.000Z");
  });

  describe("when the room is end-to-end encrypted", () => {
    it.each(LangSchema.options)("carries no question text or choices in %s", (lang) => {
      const sealed: Notification = { ...question, topic: "", text: "", choices: [], e2e: true };
      const text = renderNotification(sealed, KEY, lang, fitsTelegram).lines.join("\n");
      expect(text).not.toContain("Seller holds");
      expect(text).not.toContain("accept");
      expect(NotificationSchema.safeParse({ ...question, text: "" }).success).toBe(false);
    });
  });
});
