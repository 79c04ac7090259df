/** Room news as chat messages (docs/CHAT-APPS.md "Room news"): every kind in every language, placeholders filled, terms in the words of src/text/terms.ts, none about an e2e room. */
import { describe, expect, it } from "vitest";
import { messageFor } from "../../../src/chat/send.js";
import { LangSchema, RoomNewsKindSchema, type RoomNews } from "../../../src/protocol/index.js";

/** A piece of news of kind `news` with every optional field a kind may carry. */
function event(news: RoomNews["news"], e2e = false): RoomNews {
  const base = e2e ? { table: "r-1", topic: "", e2e: true as const } : { table: "r-1", topic: "A stroller" };
  return {
    ...base,
    type: "room_news",
    id: `r-1:7:${news}`,
    news,
    seat: "ben-bot",
    seq: 7,
    ...(e2e ? {} : { terms: { amount: 280000, currency: "TWD" as const, text: "stroller" } }),
    waiting: ["sara"],
    by: "sara",
    reason: "bids_do_not_cross",
    held: { kind: "accept", message_sha256: "ab".repeat(32) },
  };
}

describe("room news in chat", () => {
  for (const lang of LangSchema.options) {
    it(`renders every kind in ${lang} with each placeholder filled, and no terms about an e2e room`, () => {
      for (const news of RoomNewsKindSchema.options) {
        const open = messageFor("discord", event(news), "k", lang);
        expect(open.lines.join("\n")).not.toMatch(/\{[a-z_]+\}/);
        const sealed = messageFor("discord", event(news, true), "k", lang);
        expect(sealed.lines.join("\n")).not.toMatch(/2,800|stroller|\{[a-z_]+\}/);
      }
    });
  }

  it("names the terms in full and, for a held message, how to approve it", () => {
    const held = messageFor("telegram", event("held"), "k", "en");
    expect(held.title).toBe("Your approval is needed");
    expect(held.lines[1]).toBe(
      'Your agent ben-bot wants to accept 2,800.00 TWD (280000 minor units) for "stroller": approve in trestle view or with trestle gate approve abababababab --table r-1 --seat ben-bot',
    );
    expect(messageFor("line", event("deal_pending"), "k", "ja").lines[1]).toContain("sara がまだ署名していません");
  });
});
