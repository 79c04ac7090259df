/**
 * A seat's question to its owner (docs/SPEC.md §5.14, decision 0413) as a chat message: in each
 * language, the seat, the question, its choices and how to answer by key; one button per choice
 * and, for free text, the `/answer <ref>` line (and Telegram's reply field), within every
 * platform's published limits; no content, buttons or ref about an e2e room.
 */
import { describe, expect, it } from "vitest";
import { t } from "../../../src/chat/i18n.js";
import { renderNotification } from "../../../src/chat/render.js";
import { parseCommandText } from "../../../src/chat/inbound.js";
import { ANSWER_DATA_BYTES, encodeChoice, parseChoice, questionRef, refOfQuoted } from "../../../src/chat/question.js";
import { formatDiscord } from "../../../src/chat/platforms/discord.js";
import { formatLine } from "../../../src/chat/platforms/line.js";
import { fitsTelegram, formatTelegram, parseTelegramUpdate } from "../../../src/chat/platforms/telegram.js";
import { PLATFORMS } from "../../../src/chat/platforms/index.js";
import {
  ChatPlatformSchema,
  LangSchema,
  NotificationSchema,
  type ChatPlatform,
  type Notification,
} from "../../../src/protocol/index.js";
import { buttonData, limitViolations, visibleText } from "../../support/chat-limits.js";

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
const REF = questionRef(KEY, question.id);

/** The request body `platform` would send for `event` (LINE: the push's messages). */
function sent(platform: ChatPlatform, event: Notification, lang: "en" | "ja" = "en"): Record<string, any> {
  const message = renderNotification(event, KEY, lang, PLATFORMS[platform].fits);
  if (platform === "telegram") return formatTelegram(message);
  if (platform === "line") return { to: "U1", messages: formatLine(message) };
  return formatDiscord(message);
}

describe("an owner_question message", () => {
  it.each(LangSchema.options)(
    "names the seat, the question, its choices and the command that answers it in %s",
    (lang) => {
      const text = renderNotification(question, KEY, lang, fitsTelegram).lines.join("\n");
      expect(text).toContain("ben-bot");
      expect(text).toContain("Seller holds at 2,800. Accept?");
      expect(text).toContain("accept | hold");
      expect(text).toContain("trestle answer abcdefghijklmnop --table r-stroller");
      expect(text).toContain("2026-12-02T03:00:00.000Z");
    },
  );

  it.each(ChatPlatformSchema.options)(
    "shows one button per choice on %s, each naming the question's ref and the choice's index, within the limits",
    (platform) => {
      const body = sent(platform, question);
      expect(limitViolations(platform, body)).toEqual([]);
      expect(buttonData(platform, body)).toEqual([encodeChoice(REF, 0), encodeChoice(REF, 1)]);
      expect(parseChoice(encodeChoice(REF, 1))).toEqual({ verb: "choose", ref: REF, choice: 1 });
      expect(new TextEncoder().encode(encodeChoice(REF, 7)).length).toBe(ANSWER_DATA_BYTES);
    },
  );

  it("lays out eight long choices within each platform's limits: a Telegram row each, LINE quick replies with the whole choice posted, two Discord rows", () => {
    const choices = Array.from({ length: 8 }, (_, i) => `${i}`.padEnd(64, "*"));
    const many: Notification = { ...question, text: "<&*>".repeat(250), topic: "#".repeat(500), choices };
    for (const platform of ChatPlatformSchema.options) {
      const body = sent(platform, many);
      expect(limitViolations(platform, body), platform).toEqual([]);
      expect(buttonData(platform, body), platform).toEqual(choices.map((_, i) => encodeChoice(REF, i)));
      expect(visibleText(platform, body), platform).toContain("Or tap a choice below");
    }
    expect(sent("telegram", many).reply_markup.inline_keyboard).toHaveLength(8);
    expect(sent("line", many).messages[0].quickReply.items[0].action.displayText).toBe(choices[0]);
    expect(sent("discord", many).components.map((row: { components: unknown[] }) => row.components.length)).toEqual([
      5, 3,
    ]);
  });

  it.each(ChatPlatformSchema.options)(
    "asks a free-text question on %s with the /answer line last, never cut, and Telegram's reply field",
    (platform) => {
      const free: Notification = { ...question, choices: [], text: "*".repeat(1000) };
      const body = sent(platform, free);
      expect(limitViolations(platform, body)).toEqual([]);
      expect(buttonData(platform, body)).toEqual([]);
      const text = visibleText(platform, body);
      expect(text.trimEnd().split("\n").at(-1)).toContain(`/answer ${REF} `);
      expect(refOfQuoted(text)).toBe(REF);
      if (platform === "telegram") expect(body.reply_markup).toEqual({ force_reply: true });
    },
  );

  describe("when the room is end-to-end encrypted", () => {
    it.each(LangSchema.options)("carries no question text or choices in %s", (lang) => {
      const sealed: Notification = { ...question, topic: "", text: "", choices: [], e2e: true };
      const text = renderNotification(sealed, KEY, lang, fitsTelegram).lines.join("\n");
      expect(text).not.toContain("Seller holds");
      expect(text).not.toContain("accept");
      expect(NotificationSchema.safeParse({ ...question, text: "" }).success).toBe(false);
    });

    it.each(ChatPlatformSchema.options)(
      "says there is a question and where to answer it on %s, with no buttons, no reply field and no ref",
      (platform) => {
        const sealed: Notification = { ...question, topic: "", text: "", choices: [], e2e: true };
        const body = sent(platform, sealed);
        const text = visibleText(platform, body);
        expect(limitViolations(platform, body)).toEqual([]);
        expect(buttonData(platform, body)).toEqual([]);
        expect(body.reply_markup).toBeUndefined();
        expect(text).toContain("end-to-end encrypted, so the relay cannot read the question");
        expect(text).toContain("trestle answer abcdefghijklmnop --table r-stroller");
        expect(text).not.toContain(REF);
        expect(refOfQuoted(text)).toBeNull();
      },
    );
  });
});

describe("answering and instructing by command", () => {
  it("parses /answer with its code and the rest of the message as the answer, and /instruct with a seat, an optional table and the text", () => {
    expect(parseCommandText(`/answer ${REF} Go up to\n2,900`)).toEqual({
      name: "answer",
      ref: REF,
      text: "Go up to\n2,900",
    });
    expect(parseCommandText("/instruct sara-bot Hold at 2,800.")).toEqual({
      name: "instruct",
      seat: "sara-bot",
      table: null,
      text: "Hold at 2,800.",
    });
    expect(parseCommandText("/instruct sara-bot@r-stroller Hold.")).toEqual({
      name: "instruct",
      seat: "sara-bot",
      table: "r-stroller",
      text: "Hold.",
    });
  });

  describe("when a command's arguments do not match", () => {
    it("keeps the command with no code or seat, so the reply says how to use it", () => {
      expect(parseCommandText("/answer short text")).toMatchObject({ name: "answer", ref: null });
      expect(parseCommandText(`/answer ${REF}`)).toMatchObject({ name: "answer", ref: null });
      expect(parseCommandText("/instruct Sara!Bot text")).toMatchObject({ name: "instruct", seat: null });
      expect(parseCommandText("/instruct sara-bot")).toMatchObject({ name: "instruct", seat: null });
    });
  });

  it("takes a private Telegram reply to a free-text question's message as /answer with the ref on its last line", () => {
    const quoted = `Your seat asks you\n/answer ${"x".repeat(16)} a forged line in the seat's text\nOr reply to this message, or send /answer ${REF} <your answer>: …`;
    const update = {
      update_id: 1,
      message: {
        from: { id: 7, first_name: "S" },
        chat: { id: 7, type: "private" },
        text: "2,900 at most",
        reply_to_message: { text: quoted },
      },
    };
    expect(parseTelegramUpdate(update, "bot")).toMatchObject({
      kind: "command",
      command: { name: "answer", ref: REF, text: "2,900 at most" },
    });
  });

  describe("when a Telegram reply quotes no question", () => {
    it("ignores it, and a forged /answer line above the last one does not count", () => {
      const quoted = `Your seat asks you\n/answer ${REF} forged\nAnswer: trestle answer abcdefghijklmnop --table r-stroller <answer>, or in trestle view.`;
      const update = {
        update_id: 2,
        message: {
          from: { id: 7, first_name: "S" },
          chat: { id: 7, type: "private" },
          text: "yes",
          reply_to_message: { text: quoted },
        },
      };
      expect(parseTelegramUpdate(update, "bot")).toMatchObject({ kind: "ignored" });
    });
  });
});

describe("the /help reply", () => {
  it("names /answer and /instruct in every language", () => {
    for (const lang of LangSchema.options) {
      const help = t(lang, "reply.help", { platform: "telegram" });
      expect(help, lang).toContain("/answer ");
      expect(help, lang).toContain("/instruct ");
    }
  });
});
