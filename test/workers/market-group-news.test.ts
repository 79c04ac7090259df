/**
 * What a market's bound groups see (docs/SPEC.md §5.15 "Groups", §11.4): its new listings and done
 * deals through the durable group outbox, in each group's language, several items in one message
 * and no sooner than the platform's pace for a group allows, each message within the platform's
 * limits; and after the relay's object is killed mid-send (as chat-resend.test.ts kills an owner's),
 * the same items go out again marked as sent again, under the same duplicate guard.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { groupAudience, type ChatPlatform } from "../../src/protocol/index.js";
import { RelayHttp } from "../support/relay-http.js";
import { MarketHttp } from "../support/market-http.js";
import { expect201 } from "../support/room-http.js";
import { killedMidSend, postLine, postTelegram, requests, runAlarm, script } from "../support/chat-driver.js";
import {
  askGroupCode,
  drainGroups,
  paceElapsed,
  postedToGroup,
  sayInGroup,
  settledNotices,
  type TestGroup,
} from "../support/chat-groups.js";
import { limitViolations, visibleText } from "../support/chat-limits.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));
const RULES = {
  market: { categories: ["baby-gear", "books"], listing_ttl_ms: 7 * 86_400_000, listings_per_member: 50 },
};
type Lang = "en" | "ja" | "zh-Hans" | "zh-Hant";

/** Market `id` with ana and ben, each group bound in its language (hana's account there typing the code), greetings delivered. */
async function marketWith(id: string, groups: readonly (TestGroup & { lang: Lang })[]): Promise<MarketHttp> {
  const m = await MarketHttp.open(relay, id, { members: ["ana", "ben"], overrides: RULES });
  for (const g of groups) {
    const { code } = expect201(await askGroupCode(relay, m.id, m.k.owners.hana, g.platform, g.lang)).body;
    await sayInGroup(g, g.platform === "line" ? "U3900" : "3900", `/bind ${code}`);
  }
  await drainGroups(m.id);
  return m;
}

/** The messages the fake saw posted to `group` after its greeting, as their readers see them. */
async function news(group: TestGroup): Promise<string[]> {
  return (await postedToGroup(group)).slice(1).map((body) => visibleText(group.platform, body));
}

const stroller = {
  side: "offer" as const,
  title: "Bugaboo stroller",
  category: "baby-gear",
  quantity: 1,
  price: { currency: "TWD" as const, min: 280000 },
};

describe("a market's news in its groups", () => {
  it("reaches each group in its language, several listings in one message, and waits for the platform's pace before the next", async () => {
    const groups = [
      { platform: "telegram", id: "-1003901", lang: "en" },
      { platform: "line", id: "C3902group", lang: "ja" },
      { platform: "discord", id: "3903", lang: "zh-Hans" },
    ] as const;
    const m = await marketWith("mgn-langs", groups);
    expect201(await m.list("ana", stroller));
    expect201(await m.list("ben", { side: "want", title: "Picture books", category: "books", quantity: 2 }));
    expect201(await m.list("ana", { side: "offer", title: "High chair", category: "baby-gear", quantity: 1 }));
    expect(await drainGroups(m.id)).toMatchObject({ sent: 3, delivered: 3 });
    const [en, ja, zh] = await Promise.all(groups.map(news));
    expect(en).toHaveLength(1);
    expect(en![0]!.split("\n")).toEqual([
      "News from market mgn-langs",
      expect.stringMatching(/^#\d+ New offer: "Bugaboo stroller" \(baby-gear\), ×1, from 2,800.00 TWD, by ana$/),
      expect.stringMatching(/^#\d+ New want: "Picture books" \(books\), ×2, price on request, by ben$/),
      expect.stringMatching(/^#\d+ New offer: "High chair" \(baby-gear\), ×1, price on request, by ana$/),
    ]);
    expect(ja![0]).toMatch(
      /^マーケット mgn-langs のお知らせ\n#\d+ 新しい出品："Bugaboo stroller"（baby-gear）、×1、2,800.00 TWD から、出品者 ana/,
    );
    expect(zh![0]).toMatch(
      /^市场 mgn-langs 的动态\n#\d+ 新出售："Bugaboo stroller"（baby-gear），×1，2,800.00 TWD 起，发布者 ana/,
    );

    expect201(await m.list("ben", { side: "want", title: "Crib", category: "baby-gear", quantity: 1 }));
    expect(await drainGroups(m.id)).toMatchObject({ sent: 0 });
    await paceElapsed(m.id);
    expect(await drainGroups(m.id)).toMatchObject({ sent: 3, delivered: 3 });
    for (const g of groups) expect((await news(g)).at(-1)).toContain('"Crib"');
  });

  it("cuts a batch to the platform's message limit: every item arrives, in messages each within it", async () => {
    const group = { platform: "discord", id: "3910", lang: "en" } as const;
    const m = await marketWith("mgn-cut", [group]);
    for (let i = 0; i < 20; i++)
      expect201(
        await m.list(i % 2 === 0 ? "ana" : "ben", {
          side: "offer",
          title: `${"Very long item description ".repeat(4)}${i}`.slice(0, 120),
          category: "books",
          quantity: 1,
        }),
      );
    for (let round = 0; round < 10 && (await drainGroups(m.id)).sent > 0; round++) await paceElapsed(m.id);
    const bodies = (await postedToGroup(group)).slice(1);
    expect(bodies.length).toBeGreaterThan(1);
    expect(bodies.flatMap((b) => limitViolations("discord", b))).toEqual([]);
    const items = bodies.flatMap((b) => visibleText("discord", b).split("\n").slice(1));
    expect(items.map((line) => /(\d+)"/.exec(line)?.[1])).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
  });
});

describe("when the relay's object is killed mid-send", () => {
  const cases: [ChatPlatform, TestGroup & { lang: Lang }, string][] = [
    ["telegram", { platform: "telegram", id: "-1003920", lang: "en" }, '"chat_id":"-1003920"'],
    ["line", { platform: "line", id: "C3921group", lang: "zh-Hant" }, '"to":"C3921group"'],
    ["discord", { platform: "discord", id: "3922", lang: "ja" }, "/discord/channels/3922/messages"],
  ];
  it.each(cases)(
    "sends a %s group's news again, the same items marked as sent again under the same duplicate guard, and loses none",
    async (platform, group, match) => {
      const m = await marketWith(`mgn-kill-${platform}`, [group]);
      expect201(await m.list("ana", stroller));
      expect201(await m.list("ben", { side: "want", title: "stroller", category: "baby-gear", quantity: 1 }));
      await settledNotices(m.id);
      await killedMidSend(groupAudience(m.id), match, "after-delivery");
      expect(await runAlarm(groupAudience(m.id))).toBe(true);
      const sent = (await requests(match)).slice(1);
      expect(sent).toHaveLength(2);
      const [first, again] = sent.map((r) => visibleText(platform, r.body as Record<string, unknown>));
      expect(again!.split("\n").slice(1)).toEqual(first!.split("\n").slice(1));
      expect(again!.split("\n")[0]).toMatch(/sent again|重新傳送|再送/);
      expect(first!.split("\n")[0]).not.toMatch(/sent again|重新傳送|再送/);
      if (platform === "line") expect(sent[1]!.headers["x-line-retry-key"]).toBe(sent[0]!.headers["x-line-retry-key"]);
      if (platform === "discord")
        expect((sent[1]!.body as { nonce: string }).nonce).toBe((sent[0]!.body as { nonce: string }).nonce);
      // Telegram has no duplicate guard: both copies arrive, the second marked; LINE and Discord drop the repeat.
      expect(sent.map((r) => r.delivered)).toEqual(platform === "telegram" ? [true, true] : [true, false]);
      const health = (await m.read("hana", `/tables/${m.id}/groups`)).body.groups[0].health;
      expect(
        health.recent
          .map((a: { status: string; reason: string | null; resends: number }) => [a.status, a.reason, a.resends])
          .slice(0, 2),
      ).toEqual([
        ["delivered", null, 1],
        ["delivered", null, 1],
      ]);
    },
  );
});

describe("when a group is lost", () => {
  /** The market's health for its only group: state, and the newest attempt's reason and detail. */
  async function healthOf(m: MarketHttp) {
    const [group] = (await m.read("ana", `/tables/${m.id}/groups`)).body.groups;
    return {
      state: group.health.state,
      reason: group.health.recent[0]?.reason,
      detail: group.health.recent[0]?.detail,
      undelivered: group.health.undelivered,
    };
  }

  /** Lists a stroller and drains the audience, past the pace: what the group got after its greeting. */
  async function afterNews(m: MarketHttp, group: TestGroup): Promise<number> {
    expect201(await m.list("ana", stroller));
    await paceElapsed(m.id);
    await drainGroups(m.id);
    return (await postedToGroup(group)).length - 1;
  }

  it("shows a Telegram group the bot was removed from as removed in the market's health, and sends it nothing more", async () => {
    const group = { platform: "telegram", id: "-1003930", lang: "en" } as const;
    const m = await marketWith("mgn-kicked", [group]);
    const update = {
      update_id: 39_301,
      my_chat_member: {
        chat: { id: Number(group.id), type: "supergroup" },
        from: { id: 3931 },
        date: 1,
        old_chat_member: { status: "member" },
        new_chat_member: { status: "kicked", user: { id: 1, is_bot: true } },
      },
    };
    expect((await postTelegram(update)).body).toEqual({});
    expect(await healthOf(m)).toMatchObject({
      state: "removed",
      reason: "removed",
      detail: 'the bot\'s membership is now "kicked"',
    });
    expect(await afterNews(m, group)).toBe(0);
    expect((await healthOf(m)).undelivered).toBe(1);
  });

  it("shows a Telegram group that became a supergroup as migrated, naming its new id", async () => {
    const group = { platform: "telegram", id: "-3940", lang: "en" } as const;
    const m = await marketWith("mgn-migrated", [group]);
    const update = {
      update_id: 39_401,
      message: {
        message_id: 9,
        date: 1,
        chat: { id: -3940, type: "group" },
        from: { id: 3941 },
        migrate_to_chat_id: -1003940,
      },
    };
    expect((await postTelegram(update)).body).toEqual({});
    expect(await healthOf(m)).toMatchObject({ state: "migrated", detail: "the group became supergroup -1003940" });
    expect(await afterNews(m, group)).toBe(0);
  });

  it("shows a LINE group the official account left as removed", async () => {
    const group = { platform: "line", id: "C3950group", lang: "ja" } as const;
    const m = await marketWith("mgn-left", [group]);
    await postLine([
      {
        type: "leave",
        webhookEventId: "01LEAVE3950",
        timestamp: 1,
        mode: "active",
        source: { type: "group", groupId: group.id },
        deliveryContext: { isRedelivery: false },
      },
    ]);
    expect(await healthOf(m)).toMatchObject({
      state: "removed",
      detail: "the official account left the group (leave event)",
    });
    expect(await afterNews(m, group)).toBe(0);
  });

  it.each([
    [
      "discord",
      { platform: "discord", id: "3960", lang: "en" },
      "/discord/channels/3960/messages",
      403,
      { code: 50001, message: "Missing Access" },
      "removed",
      "Missing Access",
    ],
    [
      "telegram",
      { platform: "telegram", id: "-1003961", lang: "en" },
      '"chat_id":"-1003961"',
      403,
      { ok: false, error_code: 403, description: "Forbidden: bot was kicked from the supergroup chat" },
      "removed",
      "Forbidden: bot was kicked from the supergroup chat",
    ],
    [
      "telegram",
      { platform: "telegram", id: "-3962", lang: "en" },
      '"chat_id":"-3962"',
      400,
      {
        ok: false,
        error_code: 400,
        description: "Bad Request: group chat was upgraded to a supergroup chat",
        parameters: { migrate_to_chat_id: -1003962 },
      },
      "migrated",
      "the group became supergroup -1003962: Bad Request: group chat was upgraded to a supergroup chat",
    ],
  ] as const)(
    "learns it from a %s refusal to post, and shows it",
    async (_platform, group, match, status, body, state, detail) => {
      const m = await marketWith(`mgn-refused-${group.id.replace("-", "m")}`, [group]);
      await script({ match, status, body, times: 1 });
      expect(await afterNews(m, group)).toBe(1);
      expect(await healthOf(m)).toMatchObject({ state, reason: state, detail });
      expect201(await m.list("ben", { side: "want", title: "Crib", category: "baby-gear", quantity: 1 }));
      await paceElapsed(m.id);
      await drainGroups(m.id);
      expect((await postedToGroup(group)).length - 1).toBe(1);
    },
  );
});
