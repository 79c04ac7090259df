/**
 * A market's chat groups over the relay (docs/SPEC.md §5.15 "Groups", decision 0500): the creator's
 * signed request gets a one-time code; typed in a Telegram supergroup, a LINE group or a Discord
 * server channel (each webhook signed as its platform signs it), it binds that group, which the
 * market's ledger records and its health shows, and the group is greeted in its language through
 * the durable outbox. One market per group; a code works only where it belongs; the creator's
 * signed unbinding frees the group. Every reply to the person who typed goes to them alone.
 */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signGroupUnbind, type Entry } from "../../src/protocol/index.js";
import type { ChatDirectoryDO } from "../../durable-objects/chat-directory/directory.js";
import { RelayHttp } from "../support/relay-http.js";
import { MarketHttp } from "../support/market-http.js";
import { expect201 } from "../support/room-http.js";
import {
  bindVia,
  lineText,
  ownerClient,
  postLine,
  postTelegram,
  requests,
  telegramText,
} from "../support/chat-driver.js";
import {
  askGroupCode,
  bodyText,
  drainGroups,
  postedToGroup,
  sayInGroup,
  settledNotices,
  type TestGroup,
} from "../support/chat-groups.js";
import { nonceOf } from "../support/table-fixture.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));

async function entries(m: MarketHttp): Promise<Entry[]> {
  return (await m.read("hana", `/tables/${m.id}/entries?from=1`)).body.items;
}

/** A new code for `group`'s platform, asked for by `m`'s creator. */
async function codeFor(
  m: MarketHttp,
  group: TestGroup,
  lang: "en" | "ja" | "zh-Hant" | "zh-Hans" = "en",
): Promise<string> {
  return expect201(await askGroupCode(relay, m.id, m.k.owners.hana, group.platform, lang)).body.code;
}

/** Binds `group` to `m` with a fresh code typed there by `account` (the creator's chat account); returns the private reply. */
async function bindGroup(
  m: MarketHttp,
  group: TestGroup,
  account: string,
  lang: "en" | "ja" | "zh-Hant" | "zh-Hans" = "en",
): Promise<string | null> {
  return sayInGroup(group, account, `/bind ${await codeFor(m, group, lang)}`);
}

const GROUPS: TestGroup[] = [
  { platform: "telegram", id: "-1003701" },
  { platform: "line", id: "C3702group" },
  { platform: "discord", id: "3703" },
];
const ACCOUNTS = { telegram: "3710", line: "U3710", discord: "3710" } as const;

describe("binding a chat group to a market", () => {
  it("binds a group on each platform with the creator's code typed there: the ledger records it, the group is greeted in its language, and the market's health shows it", async () => {
    const m = await MarketHttp.open(relay, "mg-bind", { members: ["ana"] });
    for (const [i, group] of GROUPS.entries()) {
      const reply = await bindGroup(m, group, ACCOUNTS[group.platform], (["en", "ja", "zh-Hant"] as const)[i]);
      expect(reply).toMatch(/front door of market mg-bind|mg-bind の入口|mg-bind 的入口/);
    }
    const bound = (await entries(m)).filter((e) => e.kind === "system" && e.subkind === "group_bound");
    expect(
      bound.map(
        (e) =>
          e.kind === "system" && e.subkind === "group_bound" && [e.data.platform, e.data.group, e.data.lang, e.data.by],
      ),
    ).toEqual([
      ["telegram", "-1003701", "en", "hana"],
      ["line", "C3702group", "ja", "hana"],
      ["discord", "3703", "zh-Hant", "hana"],
    ]);
    expect(bound.every((e) => e.author?.key === m.k.owners.hana.publicKeyText)).toBe(true);

    await settledNotices(m.id);
    const before = await m.read("ana", `/tables/${m.id}/groups`);
    expect(
      before.body.groups.map((g: { platform: string; health: { state: string } }) => [g.platform, g.health.state]),
    ).toEqual([
      ["telegram", "unproven"],
      ["line", "unproven"],
      ["discord", "unproven"],
    ]);
    expect(await drainGroups(m.id)).toMatchObject({ delivered: 3 });
    const greetings = await Promise.all(GROUPS.map(async (g) => bodyText((await postedToGroup(g))[0]!)));
    expect(greetings[0]).toContain("This group is a market's front door");
    expect(greetings[1]).toContain("このグループはマーケットの入口になりました");
    expect(greetings[2]).toContain("本群已成為一個市場的入口");
    const after = await m.read("hana", `/tables/${m.id}/groups`);
    expect(
      after.body.groups.map((g: { health: { state: string; delivered: number } }) => [
        g.health.state,
        g.health.delivered,
      ]),
    ).toEqual([
      ["ok", 1],
      ["ok", 1],
      ["ok", 1],
    ]);
  });

  it("unbinds a group by the creator's signed unbinding: the ledger records it, its health is gone, and another market may bind it", async () => {
    const a = await MarketHttp.open(relay, "mg-unbind-a");
    const b = await MarketHttp.open(relay, "mg-unbind-b");
    const group: TestGroup = { platform: "telegram", id: "-1003720" };
    await bindGroup(a, group, "3721");
    const unbind = await signGroupUnbind(a.k.owners.hana, {
      table: a.id,
      platform: "telegram",
      group: group.id,
      nonce: nonceOf("mg-unbind"),
      ts: Date.now(),
    });
    const done = expect201(await relay.request("POST", `/tables/${a.id}/groups/unbind`, unbind));
    expect((await entries(a))[done.body.seq - 1]).toMatchObject({
      subkind: "group_unbound",
      data: { platform: "telegram", group: group.id, by: "hana" },
    });
    expect((await a.read("hana", `/tables/${a.id}/groups`)).body.groups).toEqual([]);
    expect(await bindGroup(b, group, "3721")).toContain("front door of market mg-unbind-b");
  });

  describe("when a code does not belong where it is typed", () => {
    it("keeps a group to one market: another market's code there is refused and leaves its ledger as it was", async () => {
      const a = await MarketHttp.open(relay, "mg-one-a");
      const b = await MarketHttp.open(relay, "mg-one-b");
      const group: TestGroup = { platform: "discord", id: "3730" };
      await bindGroup(a, group, "3731");
      const before = (await entries(b)).length;
      expect(await bindGroup(b, group, "3731")).toContain("already the front door of market mg-one-a");
      expect((await entries(b)).length).toBe(before);
    });

    it("takes a group's code only in a group: sent privately it binds nothing and still works in the group", async () => {
      const m = await MarketHttp.open(relay, "mg-private-code");
      const code = await codeFor(m, { platform: "telegram", id: "-1003740" });
      const privately = await postTelegram(telegramText(3741, `/bind ${code}`));
      expect(privately.body.text).toContain("send it in the group itself");
      expect(await sayInGroup({ platform: "telegram", id: "-1003740" }, "3741", `/bind ${code}`)).toContain(
        "front door of market mg-private-code",
      );
    });

    it("spends an owner's code typed in a group, where others read it, without binding anyone", async () => {
      const owner = ownerClient((await MarketHttp.open(relay, "mg-owner-code")).k.owners.ana);
      const { code } = await owner.bindCode("line", "en");
      expect(await sayInGroup({ platform: "line", id: "C3750group" }, "U3751", `/bind ${code}`)).toContain(
        "no longer works",
      );
      expect(await linePrivately("U3752", code)).toContain("not valid");
      expect((await owner.channels()).channels).toEqual([]);
    });

    it("refuses a code request the creator did not sign (E_NOT_OWNER)", async () => {
      const m = await MarketHttp.open(relay, "mg-not-creator", { members: ["ana"] });
      expect((await askGroupCode(relay, m.id, m.k.owners.ana, "telegram")).body.error.code).toBe("E_NOT_OWNER");
      expect((await entries(m)).some((e) => e.kind === "system" && e.subkind === "group_bound")).toBe(false);
    });

    it("frees a group whose reservation no binding followed (the relay died in between), so the next code binds it", async () => {
      const m = await MarketHttp.open(relay, "mg-stale");
      const group: TestGroup = { platform: "telegram", id: "-1003760" };
      const directory = env.CHAT_DIRECTORY.getByName("directory");
      await runInDurableObject(directory, (_d: ChatDirectoryDO, state) =>
        state.storage.sql.exec(
          "INSERT INTO groups (platform, group_id, market, at) VALUES ('telegram', ?, 'mg-nowhere', 0)",
          group.id,
        ),
      );
      expect(await bindGroup(m, group, "3761")).toContain("front door of market mg-stale");
    });
  });
});

/** Sends `code` to the bot in a private LINE chat from `account`; the reply text, or null. */
async function linePrivately(account: string, code: string): Promise<string | null> {
  await postLine([lineText(account, code)]);
  const replies = await requests(`reply-${account}-`);
  return replies.length === 0 ? null : JSON.stringify(replies.at(-1)!.body);
}

/** Opens market `id` with `members`, binds `group` to it (hana's account there typing the code), and binds each member's own account on that platform privately. */
async function frontDoor(
  id: string,
  group: TestGroup,
  accounts: Partial<Record<"ana" | "ben" | "chen", string>>,
): Promise<MarketHttp> {
  const m = await MarketHttp.open(relay, id, { members: Object.keys(accounts) as ("ana" | "ben" | "chen")[] });
  await bindGroup(m, group, `${ACCOUNTS[group.platform]}0`);
  for (const [member, account] of Object.entries(accounts))
    await bindVia(group.platform, m.k.owners[member as "ana"], account, account);
  return m;
}

const of = (kind: string) => (e: Entry) => e.kind === "system" && e.subkind === kind;

describe("commands in a group bound to a market", () => {
  it.each(GROUPS.map((g, i) => [g.platform, { platform: g.platform, id: `${g.id}${i}9` }] as const))(
    "posts a member's /sell and /want from a %s group as relay-attested listings that match, answered privately",
    async (platform, group) => {
      const [ana, ben] = platform === "line" ? ["U3801", "U3802"] : ["3801", "3802"];
      const m = await frontDoor(`mg-cmd-${platform}`, group, { ana, ben });
      const listed = await sayInGroup(group, ana, "/sell Bugaboo stroller, folds flat 2800 TWD #baby-gear");
      expect(listed).toMatch(
        /^Listed #\d+ in market mg-cmd-\w+: offer "Bugaboo stroller, folds flat", from 2,800.00 TWD\. UNVERIFIED: posted from \w+, relay-attested, not your signature/,
      );
      expect(await sayInGroup(group, ben, "/want stroller 3000 TWD #baby-gear")).toContain(
        'want "stroller", up to 3,000.00 TWD',
      );
      const all = await entries(m);
      const posted = all.filter(of("group_listing"));
      expect(
        posted.map(
          (e) =>
            e.kind === "system" &&
            e.subkind === "group_listing" && [
              e.data.owner,
              e.data.via,
              e.data.group,
              e.data.side,
              e.data.title,
              e.data.price,
            ],
        ),
      ).toEqual([
        ["ana", platform, group.id, "offer", "Bugaboo stroller, folds flat", { currency: "TWD", min: 280000 }],
        ["ben", platform, group.id, "want", "stroller", { currency: "TWD", max: 300000 }],
      ]);
      expect(posted.every((e) => e.author === null && e.seat === null)).toBe(true);
      expect(all.find(of("match"))).toMatchObject({
        data: { offered_by: { owner: "ana" }, wanted_by: { owner: "ben" }, words: ["stroller"] },
      });
    },
  );

  it("answers /listings and /mine privately with the live listings, and /withdraw #n takes the member's own down", async () => {
    const group: TestGroup = { platform: "telegram", id: "-1003810" };
    const m = await frontDoor("mg-board", group, { ana: "3811", ben: "3812" });
    await sayInGroup(group, "3811", "/sell High chair #baby-gear");
    await sayInGroup(group, "3812", "/want Picture books 500 TWD #books");
    expect(await sayInGroup(group, "3812", "/listings")).toMatch(
      /^Live listings in market mg-board, newest first:\n#\d+ want: "Picture books" \(books\), up to 500.00 TWD, by ben \(UNVERIFIED: posted from a chat group\)\n#\d+ offer: "High chair" \(baby-gear\), price on request, by ana/,
    );
    const mine = (await sayInGroup(group, "3811", "/mine"))!;
    expect(mine.split("\n")).toHaveLength(2);
    const seq = /#(\d+) offer/.exec(mine)![1]!;
    expect(await sayInGroup(group, "3812", `/withdraw #${seq}`)).toMatch(/was not withdrawn: E_FORBIDDEN/);
    expect(await sayInGroup(group, "3811", `/withdraw #${seq}`)).toMatch(
      new RegExp(`^Withdrew #${seq} from market mg-board`),
    );
    expect(await sayInGroup(group, "3811", "/mine")).toBe("Your live listings in market mg-board:\nNone.");
    expect((await entries(m)).filter(of("group_unlist"))).toHaveLength(1);
  });

  describe("when the sender may not act", () => {
    it("tells an account bound to nobody how to take part on /join, privately, and answers nothing else it sends", async () => {
      const group: TestGroup = { platform: "discord", id: "3820" };
      const m = await frontDoor("mg-stranger", group, {});
      expect(await sayInGroup(group, "3821", "/sell Cot #baby-gear")).toBeNull();
      expect(await sayInGroup(group, "3821", "/listings")).toBeNull();
      expect(await sayInGroup(group, "3821", "/join")).toMatch(
        /^To post in market mg-stranger from this group: 1\. bind your chat account/,
      );
      expect((await entries(m)).filter(of("group_listing"))).toEqual([]);
    });

    it("refuses a bound account whose owner key the market never admitted, naming the key, and writes nothing", async () => {
      const group: TestGroup = { platform: "line", id: "C3830group" };
      const m = await frontDoor("mg-outsider", group, {});
      await bindVia("line", m.k.owners.chen, "U3831");
      expect(await sayInGroup(group, "U3831", "/sell Cot #baby-gear")).toMatch(
        /^Your owner key \S+ is not a member of market mg-outsider/,
      );
      expect((await entries(m)).filter(of("group_listing"))).toEqual([]);
    });

    it("answers a bound account in a group no market has bound that it is none's, and a group verb sent privately that it belongs in a group", async () => {
      const owner = (await MarketHttp.open(relay, "mg-nowhere-cmd", { members: ["ana"] })).k.owners.ana;
      await bindVia("telegram", owner, "3841");
      expect(await sayInGroup({ platform: "telegram", id: "-1003840" }, "3841", "/sell Cot #baby-gear")).toBe(
        "This group is not the front door of any market.",
      );
      expect((await postTelegram(telegramText(3841, "/sell Cot"))).body.text).toContain(
        "works in a chat group that is a market's front door",
      );
    });

    it("says how to list when a listing does not parse: no item, an unknown category, several categories", async () => {
      const group: TestGroup = { platform: "telegram", id: "-1003850" };
      await frontDoor("mg-usage", group, { ana: "3851" });
      for (const text of [
        "/sell",
        "/sell Cot #toys",
        "/want Cot #books #baby-gear",
        "/sell 2800 TWD #books",
        "/withdraw latest",
      ]) {
        expect(await sayInGroup(group, "3851", text)).toMatch(/^Usage: \/(sell|want|withdraw)/);
      }
    });
  });
});
