/**
 * The scripted run issue 37 is done by (docs/CHAT-APPS.md "Groups", docs/MARKETS.md "Groups"): a
 * market binds a Telegram supergroup, a LINE group and a Discord channel with its creator's codes;
 * three members who bound their own accounts privately post from those groups, each on its own
 * platform; two of the listings match, the members' agents open the match's room and strike a deal
 * both owners sign, recorded back in the market. Each group sees the three listings and the deal in
 * its language and nothing else (no match, no room, no price of the deal, no approval); the
 * relay's group object is killed while the deal is being announced (as chat-resend.test.ts kills an
 * owner's), and no group loses the deal. Every ledger verifies CLEAN. Webhooks are signed as each
 * platform signs them; the platforms are the loopback fake.
 */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { groupAudience, verifyExport, type Entry } from "../../src/protocol/index.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import { RelayHttp } from "../support/relay-http.js";
import { MarketHttp } from "../support/market-http.js";
import { expect201 } from "../support/room-http.js";
import { bindVia, killedMidSend, requests, runAlarm } from "../support/chat-driver.js";
import {
  askGroupCode,
  drainGroups,
  paceElapsed,
  postedToGroup,
  sayInGroup,
  settledNotices,
  type TestGroup,
} from "../support/chat-groups.js";
import { visibleText } from "../support/chat-limits.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));
const stub = (id: string) => env.TABLES.getByName(id);

const TELEGRAM: TestGroup = { platform: "telegram", id: "-1004101" };
const LINE: TestGroup = { platform: "line", id: "C4102group" };
const DISCORD: TestGroup = { platform: "discord", id: "4103" };
/** Each group's language, and where hana's and each member's own accounts are on its platform. */
const SETUP = [
  { group: TELEGRAM, lang: "en", hana: "4110", member: "ana", account: "4111" },
  { group: LINE, lang: "ja", hana: "U4110", member: "ben", account: "U4112" },
  { group: DISCORD, lang: "zh-Hant", hana: "4110", member: "chen", account: "4113" },
] as const;

async function entries(m: MarketHttp, table = m.id, as: "hana" | "ana" = "hana"): Promise<Entry[]> {
  return (await m.read(as, `/tables/${table}/entries?from=1`, table)).body.items;
}

/** What each group was sent after its greeting, as its readers see it, one string per message. */
async function groupMessages(group: TestGroup): Promise<string[]> {
  return (await postedToGroup(group)).slice(1).map((body) => visibleText(group.platform, body));
}

describe("a market whose front doors are a Telegram, a LINE and a Discord group", () => {
  it("binds them, takes three members' listings from them, sees its members' agents strike a signed deal, and tells each group the listings and the deal and nothing else, losing none when killed mid-announcement", async () => {
    const m = await MarketHttp.open(relay, "mg-e2e", { members: ["ana", "ben", "chen"] });

    // The creator binds each group with a code signed for by her key, typed in the group; each member binds privately.
    for (const { group, lang, hana, member, account } of SETUP) {
      const { code } = expect201(await askGroupCode(relay, m.id, m.k.owners.hana, group.platform, lang)).body;
      expect(await sayInGroup(group, hana, `/bind ${code}`)).toMatch(/mg-e2e/);
      await bindVia(group.platform, m.k.owners[member], account);
    }
    expect(await drainGroups(m.id)).toMatchObject({ delivered: 3 });

    // Three members post from their groups, answered privately; ana's offer and ben's want match.
    expect(await sayInGroup(TELEGRAM, "4111", "/sell Bugaboo stroller 2800 TWD #baby-gear")).toMatch(
      /^Listed #\d+ .*UNVERIFIED/,
    );
    expect(await sayInGroup(LINE, "U4112", "/want stroller 3000 TWD #baby-gear")).toMatch(/UNVERIFIED/);
    expect(await sayInGroup(DISCORD, "4113", "/want picture books #books")).toMatch(/^Listed #\d+ .*UNVERIFIED/);
    const posted = (await entries(m)).filter((e) => e.kind === "system" && e.subkind === "group_listing");
    expect(
      posted.map((e) => e.kind === "system" && e.subkind === "group_listing" && [e.data.owner, e.data.via]),
    ).toEqual([
      ["ana", "telegram"],
      ["ben", "line"],
      ["chen", "discord"],
    ]);
    const match = (await entries(m)).find((e) => e.kind === "system" && e.subkind === "match")!;
    expect(match).toMatchObject({ data: { offered_by: { owner: "ana" }, wanted_by: { owner: "ben" } } });
    expect(await drainGroups(m.id)).toMatchObject({ delivered: 3 });

    // Their agents (each member's market seat) take the match into its room and strike a deal both owners sign.
    const { room } = await m.openRoom("ben", match.seq);
    expect201(await m.joinAs("ben", room, "ben-room", { as: "owner" }));
    expect201(await m.joinAs("ana", room, "ana-room"));
    expect201(
      await m.write(
        "ana-room",
        { kind: "offer", terms: { amount: 290000, currency: "TWD", text: "Bugaboo stroller" } },
        room,
      ),
    );
    const offer = (await entries(m, room, "ana")).at(-1)!.leaf;
    expect201(await m.write("ben-room", { kind: "accept", offer }, room));
    const deal = await runInDurableObject(stub(room), (t: TableDO) => t.table.state!.room!.deals[offer]!.terms_sha256);
    expect201(await m.signDeal("ana", room, "ana-room", offer, deal));
    expect201(await m.signDeal("ben", room, "ben-room", offer, deal));
    const recorded = expect201(await m.relay.request("POST", `/tables/${m.id}/deals`, { room }));
    expect((await entries(m))[recorded.body.seq - 1]).toMatchObject({
      subkind: "deal_recorded",
      data: { match: match.seq, room },
    });

    // The relay's group object is killed while the deal goes to the LINE group; the next run sends what is left, and again what may be lost.
    await settledNotices(m.id);
    await paceElapsed(m.id);
    await killedMidSend(groupAudience(m.id), `"to":"${LINE.id}"`, "after-delivery");
    await paceElapsed(m.id);
    expect(await runAlarm(groupAudience(m.id))).toBe(true);

    for (const { group } of SETUP) {
      const messages = await groupMessages(group);
      const lines = messages.flatMap((text) => text.split("\n").slice(1));
      const listed = posted.map((e) => new RegExp(`^#${e.seq} `));
      for (const line of listed)
        expect(
          lines.filter((l) => line.test(l)),
          `${group.platform}: ${lines.join(" | ")}`,
        ).toHaveLength(1);
      const deals = lines.filter((l) => l.startsWith(`#${recorded.body.seq} `));
      expect(deals.length, `${group.platform}: the deal at least once`).toBeGreaterThanOrEqual(1);
      expect(new Set(deals).size).toBe(1);
      expect(deals[0]).toMatch(/"Bugaboo stroller" ?[（(]baby-gear[）)]/);
      // Nothing else: no match, no room, no price of the deal, no approval or offer from the room.
      const all = messages.join("\n");
      expect(all).not.toMatch(/mr-[0-9a-f]{8}|2,900|290000|match|approv|accept|offer 2/i);
      expect(lines).toHaveLength(posted.length + deals.length);
    }
    const pushes = (await requests(`"to":"${LINE.id}"`)).slice(1);
    const [first, again] = pushes.slice(-2).map((r) => visibleText("line", r.body as Record<string, unknown>));
    expect(again!.split("\n")[0]).toBe(`${first!.split("\n")[0]}（再送）`);
    expect(pushes.at(-1)!.headers["x-line-retry-key"]).toBe(pushes.at(-2)!.headers["x-line-retry-key"]);

    const relayKey = (await relay.request("GET", "/.well-known/trestle.json")).body.relay_key;
    for (const [table, as] of [
      [m.id, "hana"],
      [room, "ana"],
    ] as const) {
      const report = await verifyExport((await m.read(as, `/tables/${table}/export`, table)).body as string, {
        relayKey,
      });
      expect(report.verdict, `${table}: ${JSON.stringify(report.refuted)}`).toBe("CLEAN");
    }
  });
});
