/**
 * What guards a market's chat group (docs/SECURITY.md "Chat groups", docs/SPEC.md §5.15 "Groups"):
 * a group command that is not signed as its platform signs writes nothing; a replayed update, event
 * or interaction is handled once; each member and each group is held to its flood limit with a
 * clear private answer and nothing done; and a listing's control and bidi characters reach the
 * ledger as typed, for agents to read framed as data, and never reach people.
 */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LIMIT_TABLE, type Entry } from "../../src/protocol/index.js";
import type { ChatDirectoryDO } from "../../durable-objects/chat-directory/directory.js";
import { windowOf } from "../../durable-objects/chat-directory/codes.js";
import { listingLine } from "../../src/text/market.js";
import { RelayHttp } from "../support/relay-http.js";
import { MarketHttp } from "../support/market-http.js";
import { expect201 } from "../support/room-http.js";
import {
  bindVia,
  discordCommand,
  lineText,
  postDiscord,
  postLine,
  postTelegram,
  telegramText,
} from "../support/chat-driver.js";
import { askGroupCode, drainGroups, postedToGroup, sayInGroup, type TestGroup } from "../support/chat-groups.js";
import { keyOf } from "../support/table-fixture.js";
import { visibleText } from "../support/chat-limits.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));

async function entries(m: MarketHttp): Promise<Entry[]> {
  return (await m.read("hana", `/tables/${m.id}/entries?from=1`)).body.items;
}
const listings = async (m: MarketHttp) =>
  (await entries(m)).filter((e) => e.kind === "system" && e.subkind === "group_listing");

/** Market `id` whose front door is `group`, with ana a member whose account there is `ana` (bound privately). */
async function frontDoor(id: string, group: TestGroup, ana: string): Promise<MarketHttp> {
  const m = await MarketHttp.open(relay, id, { members: ["ana"] });
  const { code } = expect201(await askGroupCode(relay, m.id, m.k.owners.hana, group.platform)).body;
  await sayInGroup(group, group.platform === "line" ? "U4000" : "4000", `/bind ${code}`);
  await bindVia(group.platform, m.k.owners.ana, ana);
  return m;
}

/** Fills the flood counter `name` to `count` for the current window and the next, so a command now is past it however the clock turns. */
async function floodCounter(name: string, windowMs: number, count: number): Promise<void> {
  const directory = env.CHAT_DIRECTORY.getByName("directory");
  await runInDurableObject(directory, (_d: ChatDirectoryDO, state) => {
    const now = windowOf(Date.now(), windowMs);
    for (const window of [now, now + windowMs])
      state.storage.sql.exec(
        "INSERT OR REPLACE INTO counters (name, window, count) VALUES (?, ?, ?)",
        name,
        window,
        count,
      );
  });
}

describe("a group command not signed as its platform signs", () => {
  it("is refused with 401 on each platform and writes nothing", async () => {
    const m = await frontDoor("mgs-unsigned", { platform: "telegram", id: "-1004010" }, "4011");
    const sell = "/sell@trestle_test_bot Cot #baby-gear";
    expect(
      (await postTelegram(telegramText(4011, sell, { chat: { id: -1004010, type: "supergroup" } }), "wrong-secret"))
        .status,
    ).toBe(401);
    expect(
      (
        await postLine(
          [lineText("U4012", "/sell Cot #baby-gear", { source: { type: "group", groupId: "C4010", userId: "U4012" } })],
          "AAAA",
        )
      ).status,
    ).toBe(401);
    const interaction = { ...discordCommand("4013", "4010", "sell", "Cot #baby-gear"), guild_id: "777" };
    expect((await postDiscord(interaction, { signer: await keyOf("discord:stranger") })).status).toBe(401);
    expect(await listings(m)).toEqual([]);
  });
});

describe("a replayed group command", () => {
  it("is handled once: Telegram's update id, LINE's webhookEventId and Discord's interaction id each write one listing", async () => {
    const tg = await frontDoor("mgs-replay-tg", { platform: "telegram", id: "-1004020" }, "4021");
    const update = telegramText(4021, "/sell@trestle_test_bot Cot #baby-gear", {
      chat: { id: -1004020, type: "supergroup" },
    });
    expect((await postTelegram(update)).body).toMatchObject({ method: "sendMessage", chat_id: "4021" });
    expect((await postTelegram(update)).body).toEqual({});
    expect(await listings(tg)).toHaveLength(1);

    const line = await frontDoor("mgs-replay-line", { platform: "line", id: "C4022group" }, "U4022");
    const event = lineText("U4022", "/sell Cot #baby-gear", {
      source: { type: "group", groupId: "C4022group", userId: "U4022" },
    });
    await postLine([event]);
    await postLine([{ ...event, deliveryContext: { isRedelivery: true } }]);
    expect(await listings(line)).toHaveLength(1);

    const dc = await frontDoor("mgs-replay-dc", { platform: "discord", id: "4023" }, "4024");
    const base = discordCommand("4024", "4023", "sell");
    const interaction = {
      ...base,
      guild_id: "777",
      data: {
        ...base.data,
        options: [
          { name: "item", type: 3, value: "Cot" },
          { name: "category", type: 3, value: "baby-gear" },
        ],
      },
    };
    expect((await postDiscord(interaction)).body.data.content).toMatch(/^Listed/);
    expect((await postDiscord(interaction)).body.data.content).toBe("…");
    expect(await listings(dc)).toHaveLength(1);
  });
});

describe("a flood of group commands", () => {
  it("tells a member past its limit to wait, privately, and does nothing", async () => {
    const group: TestGroup = { platform: "telegram", id: "-1004030" };
    const m = await frontDoor("mgs-flood-member", group, "4031");
    const row = LIMIT_TABLE.group_commands_per_member;
    await floodCounter(`group:telegram:${group.id}:4031`, row.window_ms, row.count);
    expect(await sayInGroup(group, "4031", "/sell Cot #baby-gear")).toMatch(
      /^Too many commands from you in this group: wait \d+ s and try again\. Nothing was done\.$/,
    );
    expect(await listings(m)).toEqual([]);
  });

  it("tells every member of a group past its limit to wait, and does nothing", async () => {
    const group: TestGroup = { platform: "line", id: "C4040group" };
    const m = await frontDoor("mgs-flood-group", group, "U4041");
    const row = LIMIT_TABLE.group_commands_per_group;
    await floodCounter(`group:line:${group.id}`, row.window_ms, row.count);
    expect(await sayInGroup(group, "U4041", "/sell Cot #baby-gear")).toMatch(
      /^This group sent too many commands: wait \d+ s and try again\. Nothing was done\.$/,
    );
    expect(await listings(m)).toEqual([]);
  });
});

describe("a listing's control and bidi characters", () => {
  it("reach the ledger as typed, agents read them quoted on one line, and people see them cleaned, in the reply and in the group", async () => {
    const group: TestGroup = { platform: "discord", id: "4050" };
    const m = await frontDoor("mgs-bidi", group, "4051");
    const typed = "Cot\u202E gnp.exe \u0007\u200Bfree\u2066";
    const reply = (await sayInGroup(group, "4051", `/sell ${typed} #baby-gear`))!;
    const [posted] = await listings(m);
    expect(posted).toMatchObject({ data: { title: typed } });
    const hidden = /[\u202A-\u202E\u2066-\u2069\u200B\u0007]/;
    expect(reply).not.toMatch(hidden);
    expect(reply).toContain('"Cot gnp.exe free"');
    await drainGroups(m.id);
    const news = (await postedToGroup(group)).slice(1).map((b) => visibleText("discord", b));
    expect(news.join("\n")).toContain('"Cot gnp.exe free"');
    expect(news.join("\n")).not.toMatch(hidden);
    const [view] = (await m.read("ana", `/tables/${m.id}/listings`)).body.items;
    expect(view).toMatchObject({ title: typed, via: "discord" });
    expect(view.seat).toBeUndefined();
    expect(listingLine(view)).toContain('"Cot gnp.exe free" (baby-gear)');
    expect(listingLine(view)).toContain("UNVERIFIED: posted from a discord group, relay-attested, signed by nobody");
  });
});
