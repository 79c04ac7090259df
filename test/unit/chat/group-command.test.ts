/**
 * A member's commands in a market's chat group, as text (docs/CHAT-APPS.md "Groups"): the verbs,
 * in any case and addressed `@bot`, a slash command's named options read the same way, and a
 * listing's item, price (major units of any ISO 4217 currency, the seller's least or the buyer's
 * most) and category, with the inputs that are no listing.
 */
import { describe, expect, it } from "vitest";
import { groupCommandOf, parseGroupCommand } from "../../../src/chat/group-command.js";
import { parseTypedListing } from "../../../src/chat/listing-text.js";

const CATEGORIES = ["baby-gear", "books"];

describe("a group command", () => {
  it("is one of the group verbs, in any case, addressed to a bot or not, with the rest as written", () => {
    expect(parseGroupCommand("/SELL@trestle_bot Bugaboo  stroller\n2800 TWD")).toEqual({
      name: "group",
      verb: "/sell",
      arg: "Bugaboo  stroller\n2800 TWD",
    });
    expect(parseGroupCommand("  /mine ")).toEqual({ name: "group", verb: "/mine", arg: "" });
    expect(parseGroupCommand("/status")).toBeNull();
    expect(parseGroupCommand("sell a cot")).toBeNull();
  });

  it("reads a slash command's named options as the same words", () => {
    const options: Record<string, string> = { item: "Cot", price: "1500 TWD", category: "#baby-gear" };
    expect(groupCommandOf("sell", (name) => options[name] ?? "")).toEqual({
      name: "group",
      verb: "/sell",
      arg: "Cot 1500 TWD #baby-gear",
    });
    expect(groupCommandOf("status", () => "")).toBeNull();
  });
});

describe("a listing typed in a group", () => {
  it("takes a price last in major units, either way round, as the seller's least or the buyer's most", () => {
    expect(parseTypedListing("Bugaboo stroller 2800 TWD #baby-gear", "offer", CATEGORIES)).toEqual({
      title: "Bugaboo stroller",
      category: "baby-gear",
      price: { currency: "TWD", min: 280000 },
    });
    expect(parseTypedListing("#books picture books jpy 3000", "want", CATEGORIES)).toEqual({
      title: "picture books",
      category: "books",
      price: { currency: "JPY", max: 3000 },
    });
    expect(parseTypedListing("lamp 12.5 KWD #books", "offer", CATEGORIES)!.price).toEqual({
      currency: "KWD",
      min: 12500,
    });
  });

  it("keeps an item with no price as asking, and the market's one category when it has one", () => {
    expect(parseTypedListing("High chair", "offer", ["baby-gear"])).toEqual({
      title: "High chair",
      category: "baby-gear",
    });
  });

  it("keeps a long item whole as the text, its first 120 characters as the title", () => {
    const item = "a".repeat(150);
    expect(parseTypedListing(`${item} #books`, "offer", CATEGORIES)).toEqual({
      title: "a".repeat(120),
      text: item,
      category: "books",
    });
  });

  it("keeps the member's words as typed, control and bidi characters included, for agents to read framed as data", () => {
    expect(parseTypedListing("Cot \u202Egnp.exe\u202C #books", "offer", CATEGORIES)!.title).toBe(
      "Cot \u202Egnp.exe\u202C",
    );
  });

  describe("when it is no listing", () => {
    it.each([
      ["no category where the market has several", "Cot"],
      ["a category the market lacks", "Cot #toys"],
      ["two categories", "Cot #books #baby-gear"],
      ["nothing but a price", "2800 TWD #books"],
      ["an item that is only invisible characters", "\u202E\u200B\u2066 #books"],
    ])("refuses %s", (_why, text) => {
      expect(parseTypedListing(text, "offer", CATEGORIES)).toBeNull();
    });

    it("reads a price with more decimals than its currency has as words of the item, not a price", () => {
      expect(parseTypedListing("Cot 12.345 TWD #books", "offer", CATEGORIES)).toEqual({
        title: "Cot 12.345 TWD",
        category: "books",
      });
    });
  });
});
