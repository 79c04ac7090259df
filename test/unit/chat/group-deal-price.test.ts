/**
 * A done deal as a market's chat groups read it (docs/CHAT-APPS.md "Groups", decision 0529): its
 * price only when the market recorded it with both owners' consents, in each group language.
 */
import { describe, expect, it } from "vitest";
import { groupNewsMessage } from "../../../src/chat/render-group.js";
import type { GroupNews } from "../../../src/protocol/schemas/notify.js";
import type { Lang } from "../../../src/protocol/schemas/owner.js";

const deal: GroupNews = {
  id: "m-swap:31:group_deal",
  table: "m-swap",
  topic: "swap",
  type: "group_news",
  news: "deal",
  seq: 31,
  title: "Bugaboo stroller",
  category: "baby-gear",
  quantity: 1,
};
const shown: GroupNews = { ...deal, price: { currency: "TWD", min: 290000, max: 290000 } };

describe("a done deal in a group", () => {
  it("names no price unless both owners allowed showing it", () => {
    const lines = groupNewsMessage([deal], "en").lines;
    expect(lines).toEqual(['#31 Deal done: "Bugaboo stroller" (baby-gear), ×1.']);
    expect(lines.join("")).not.toContain("TWD");
  });

  it("names the shown price in every group language", () => {
    const expected: Record<Lang, string> = {
      en: '#31 Deal done: "Bugaboo stroller" (baby-gear), ×1, at 2,900.00 TWD.',
      "zh-Hans": '#31 交易完成："Bugaboo stroller"（baby-gear），×1，成交价 2,900.00 TWD。',
      "zh-Hant": '#31 交易完成："Bugaboo stroller"（baby-gear），×1，成交價 2,900.00 TWD。',
      ja: '#31 取引成立："Bugaboo stroller"（baby-gear）、×1、成約価格 2,900.00 TWD。',
    };
    for (const [lang, line] of Object.entries(expected))
      expect(groupNewsMessage([shown], lang as Lang).lines).toEqual([line]);
  });
});
