/**
 * A market's chat groups in its ledger (docs/SPEC.md §5.15 "Groups", decision 0500): the creator's
 * signed code binds a group (its id the relay's word) and its signed unbinding unbinds it; a bound
 * member's listing from a bound group is relay-attested (no seat, `via`), matches like a seat's,
 * and is withdrawn from the group; every refusal, and a verifier that replays all of it CLEAN.
 */
import { describe, expect, it } from "vitest";
import {
  canonicalize,
  ejectDraft,
  fold,
  groupAudience,
  groupBoundDraft,
  groupUnboundDraft,
  LIMITS,
  notificationsFor,
  signEject,
  signGroupCode,
  signGroupUnbind,
  verifyExport,
  type ChatPlatform,
  type Entry,
  type GroupListingData,
  type SystemDraftOf,
} from "../../../src/protocol/index.js";
import { MarketLedger } from "../../support/market-fixture.js";
import { nonceOf } from "../../support/table-fixture.js";
import { copy, exportOf, headOver, rechain, refusal } from "./fixtures.js";

const TWD = (min?: number, max?: number) => ({
  currency: "TWD" as const,
  ...(min === undefined ? {} : { min }),
  ...(max === undefined ? {} : { max }),
});

let n = 0;

/** The creator's code request for `platform`, signed at the ledger's clock (or `ts`), by hana unless `by` signs it. */
async function codeRequest(m: MarketLedger, platform: ChatPlatform, opts: { ts?: number; by?: "hana" | "ana" } = {}) {
  return signGroupCode(m.k.owners[opts.by ?? "hana"], {
    table: m.state.table,
    platform,
    lang: "en",
    nonce: nonceOf(`group-code:${n++}`),
    ts: opts.ts ?? m.l.now,
  });
}

/** Binds `group` of `platform` with a fresh code request. */
async function bind(m: MarketLedger, platform: ChatPlatform, group: string): Promise<Entry[]> {
  return m.l.append(groupBoundDraft(m.state, await codeRequest(m, platform), group));
}

/** The relay's draft of `owner`'s listing posted from `group`. */
function groupListing(
  m: MarketLedger,
  data: Partial<GroupListingData> & Pick<GroupListingData, "owner" | "side" | "title">,
): SystemDraftOf<"group_listing"> {
  return {
    table: m.state.table,
    seat: null,
    kind: "system",
    subkind: "group_listing",
    data: {
      via: "telegram",
      group: "-1001",
      category: "baby-gear",
      quantity: 1,
      expires: m.l.now + 86_400_000,
      ...data,
    },
    author: null,
  };
}

describe("binding a chat group to a market", () => {
  it("records the group with the creator's signature over the code request, and lists it in the market's state", async () => {
    const m = await MarketLedger.open({ members: ["ana"] });
    const [entry] = await bind(m, "telegram", "-1001");
    expect(entry).toMatchObject({
      kind: "system",
      subkind: "group_bound",
      data: { platform: "telegram", group: "-1001", lang: "en", by: "hana" },
      author: { key: m.k.owners.hana.publicKeyText },
    });
    expect(m.state.market!.groups).toEqual({
      "telegram:-1001": { platform: "telegram", group: "-1001", lang: "en", seq: entry!.seq },
    });
  });

  it("binds groups of every platform side by side, and unbinds one by the creator's signed unbinding", async () => {
    const m = await MarketLedger.open({ members: [] });
    await bind(m, "telegram", "-1001");
    await bind(m, "line", "C4af4980629");
    await bind(m, "discord", "98231");
    const unbind = await signGroupUnbind(m.k.owners.hana, {
      table: m.state.table,
      platform: "line",
      group: "C4af4980629",
      nonce: nonceOf("unbind:1"),
      ts: m.l.now,
    });
    const [entry] = m.l.append(groupUnboundDraft(m.state, unbind));
    expect(entry).toMatchObject({
      subkind: "group_unbound",
      data: { platform: "line", group: "C4af4980629", by: "hana" },
    });
    expect(Object.keys(m.state.market!.groups).sort()).toEqual(["discord:98231", "telegram:-1001"]);
  });

  describe("when the binding does not hold", () => {
    it("refuses a code request signed by another member (E_NOT_OWNER)", async () => {
      const m = await MarketLedger.open({ members: ["ana"] });
      const request = await codeRequest(m, "telegram", { by: "ana" });
      const draft = groupBoundDraft(m.state, request, "-1001");
      expect(
        await refusal(() => m.l.append({ ...draft, author: { key: m.k.owners.ana.publicKeyText, sig: request.sig } })),
      ).toMatchObject({ code: "E_NOT_OWNER" });
    });

    it("refuses a code request older than the code lives, or from the future (E_EXPIRED)", async () => {
      const m = await MarketLedger.open({ members: [] });
      for (const ts of [m.l.now - 16 * 60_000, m.l.now + LIMITS.auth_window_ms + 1000]) {
        const request = await codeRequest(m, "telegram", { ts });
        expect(await refusal(() => m.l.append(groupBoundDraft(m.state, request, "-1001")))).toMatchObject({
          code: "E_EXPIRED",
        });
      }
    });

    it("refuses a group already bound (E_NOT_ALLOWED, group_bound), and more groups than market_groups", async () => {
      const m = await MarketLedger.open({ members: [] });
      await bind(m, "discord", "1");
      expect(await refusal(() => bind(m, "discord", "1"))).toMatchObject({
        code: "E_NOT_ALLOWED",
        details: { reason: "group_bound" },
      });
      for (let i = 2; i <= LIMITS.market_groups; i++) await bind(m, "discord", String(i));
      expect(await refusal(() => bind(m, "discord", "99"))).toMatchObject({
        code: "E_NOT_ALLOWED",
        details: { reason: "market_groups" },
      });
    });

    it("refuses unbinding a group the market does not have (E_FORBIDDEN), and one at a table that is no market", async () => {
      const m = await MarketLedger.open({ members: [] });
      const unbind = await signGroupUnbind(m.k.owners.hana, {
        table: m.state.table,
        platform: "telegram",
        group: "-5",
        nonce: nonceOf("unbind:none"),
        ts: m.l.now,
      });
      expect(await refusal(() => m.l.append(groupUnboundDraft(m.state, unbind)))).toMatchObject({
        code: "E_FORBIDDEN",
        details: { reason: "group_not_bound" },
      });
    });
  });
});

describe("a listing posted from a bound group", () => {
  it("is live with no seat and its platform, matches a seat's listing, and is withdrawn from the group", async () => {
    const m = await MarketLedger.open({ members: ["ana", "ben"] });
    await bind(m, "telegram", "-1001");
    const [posted, ...caused] = m.l.append(
      groupListing(m, { owner: "ana", side: "offer", title: "Bugaboo stroller", price: TWD(250000) }),
    );
    expect(caused).toEqual([]);
    expect(m.state.market!.listings[posted!.leaf]).toMatchObject({
      seat: null,
      via: "telegram",
      owner: "ana",
      status: "open",
    });
    const [, match] = await m.list("ben", {
      side: "want",
      title: "Stroller for twins",
      category: "baby-gear",
      quantity: 1,
      price: TWD(undefined, 300000),
    });
    expect(match).toMatchObject({
      subkind: "match",
      data: {
        offer: posted!.leaf,
        offered_by: { owner: "ana", key: m.k.owners.ana.publicKeyText },
        words: ["stroller"],
      },
    });

    const [withdrawn] = m.l.append({
      table: m.state.table,
      seat: null,
      kind: "system",
      subkind: "group_unlist",
      data: { owner: "ana", via: "telegram", group: "-1001", listing: posted!.leaf },
      author: null,
    });
    expect(m.state.market!.listings[posted!.leaf]).toMatchObject({ status: "withdrawn", ended: withdrawn!.seq });
    expect(canonicalize(fold(m.l.entries))).toBe(canonicalize(m.state));
  });

  it("can be withdrawn by a seat of its owner, as the owner's agent takes it from there", async () => {
    const m = await MarketLedger.open({ members: ["ana"] });
    await bind(m, "line", "Cgroup1");
    const [posted] = m.l.append(
      groupListing(m, { owner: "ana", via: "line", group: "Cgroup1", side: "want", title: "High chair" }),
    );
    await m.write("ana-bot", { kind: "unlist", listing: posted!.leaf });
    expect(m.state.market!.listings[posted!.leaf]!.status).toBe("withdrawn");
  });

  describe("when it may not be written", () => {
    it("refuses one from a group the market has not bound, or bound on another platform (E_FORBIDDEN)", async () => {
      const m = await MarketLedger.open({ members: ["ana"] });
      await bind(m, "telegram", "-1001");
      for (const where of [{ group: "-2002" }, { via: "discord" as const, group: "1001" }]) {
        expect(
          await refusal(() => m.l.append(groupListing(m, { owner: "ana", side: "offer", title: "Cot", ...where }))),
        ).toMatchObject({ code: "E_FORBIDDEN", details: { reason: "group_not_bound" } });
      }
    });

    it("refuses one for an owner who is no member, or an ejected one (E_FORBIDDEN)", async () => {
      const m = await MarketLedger.open({ members: ["ana"] });
      await bind(m, "telegram", "-1001");
      expect(
        await refusal(() => m.l.append(groupListing(m, { owner: "ben", side: "offer", title: "Cot" }))),
      ).toMatchObject({ code: "E_FORBIDDEN", message: expect.stringMatching(/no member/) });
      m.l.append(
        ejectDraft(
          m.state,
          await signEject(m.k.owners.hana, { table: m.state.table, seat: "ana-bot", nonce: nonceOf("eject:ana") }),
        ),
      );
      expect(
        await refusal(() => m.l.append(groupListing(m, { owner: "ana", side: "offer", title: "Cot" }))),
      ).toMatchObject({ code: "E_FORBIDDEN", message: expect.stringMatching(/ejected/) });
    });

    it("refuses one after its group was unbound, and keeps the listings already posted from it", async () => {
      const m = await MarketLedger.open({ members: ["ana"] });
      await bind(m, "telegram", "-1001");
      const [posted] = m.l.append(groupListing(m, { owner: "ana", side: "offer", title: "Cot" }));
      m.l.append(
        groupUnboundDraft(
          m.state,
          await signGroupUnbind(m.k.owners.hana, {
            table: m.state.table,
            platform: "telegram",
            group: "-1001",
            nonce: nonceOf("unbind:2"),
            ts: m.l.now,
          }),
        ),
      );
      expect(
        await refusal(() => m.l.append(groupListing(m, { owner: "ana", side: "offer", title: "Crib" }))),
      ).toMatchObject({ code: "E_FORBIDDEN" });
      expect(m.state.market!.listings[posted!.leaf]!.status).toBe("open");
    });

    it("holds it to the market's rules: its categories, its listing lifetime, the live listings a member may hold", async () => {
      const m = await MarketLedger.open({
        members: ["ana"],
        config: { market: { categories: ["baby-gear"], listing_ttl_ms: 86_400_000, listings_per_member: 1 } },
      });
      await bind(m, "telegram", "-1001");
      expect(
        await refusal(() =>
          m.l.append(groupListing(m, { owner: "ana", side: "offer", title: "Cot", category: "books" })),
        ),
      ).toMatchObject({ code: "E_SCHEMA" });
      expect(
        await refusal(() =>
          m.l.append(groupListing(m, { owner: "ana", side: "offer", title: "Cot", expires: m.l.now + 2 * 86_400_000 })),
        ),
      ).toMatchObject({ code: "E_EXPIRED" });
      m.l.append(groupListing(m, { owner: "ana", side: "offer", title: "Cot" }));
      expect(
        await refusal(() => m.l.append(groupListing(m, { owner: "ana", side: "want", title: "Crib" }))),
      ).toMatchObject({ code: "E_NOT_ALLOWED", details: { reason: "listings_per_member" } });
    });

    it("refuses withdrawing from a group a listing a seat signed, or another owner's (E_FORBIDDEN)", async () => {
      const m = await MarketLedger.open({ members: ["ana", "ben"] });
      await bind(m, "telegram", "-1001");
      const [signed] = await m.list("ana", { side: "offer", title: "Cot", category: "baby-gear", quantity: 1 });
      const [posted] = m.l.append(groupListing(m, { owner: "ben", side: "offer", title: "Crib" }));
      const unlist = (listing: string) =>
        m.l.append({
          table: m.state.table,
          seat: null,
          kind: "system",
          subkind: "group_unlist",
          data: { owner: "ana", via: "telegram", group: "-1001", listing },
          author: null,
        });
      expect(await refusal(() => unlist(signed!.leaf))).toMatchObject({
        code: "E_FORBIDDEN",
        details: { reason: "signed" },
      });
      expect(await refusal(() => unlist(posted!.leaf))).toMatchObject({ code: "E_FORBIDDEN" });
    });
  });
});

describe("verifying a market with groups", () => {
  it("is CLEAN: the creator's signatures over the code request and the unbinding check, and every group listing and its matches replay", async () => {
    const m = await MarketLedger.open({ members: ["ana", "ben"] });
    await bind(m, "discord", "98231");
    m.l.append(groupListing(m, { owner: "ana", via: "discord", group: "98231", side: "offer", title: "Stroller" }));
    m.l.append(groupListing(m, { owner: "ben", via: "discord", group: "98231", side: "want", title: "Stroller" }));
    m.l.append(
      groupUnboundDraft(
        m.state,
        await signGroupUnbind(m.k.owners.hana, {
          table: m.state.table,
          platform: "discord",
          group: "98231",
          nonce: nonceOf("unbind:3"),
          ts: m.l.now,
        }),
      ),
    );
    const report = await verifyExport(await m.exportText(), { relayKey: m.k.relay.publicKeyText });
    expect(report.verdict).toBe("CLEAN");
    expect(report.coverage.policy_replay).toBe("full");
  });

  it("refutes a binding whose platform was changed after the creator signed it", async () => {
    const m = await MarketLedger.open({ members: [] });
    await bind(m, "telegram", "-1001");
    const entries = copy(m.l.entries);
    const bound = entries.at(-1)!;
    if (bound.kind === "system" && bound.subkind === "group_bound") bound.data.platform = "discord";
    const chained = rechain(entries);
    const report = await verifyExport(
      await exportOf(m.k.relay, chained, [await headOver(m.k.relay, chained)], m.state.table),
      { relayKey: m.k.relay.publicKeyText },
    );
    expect(report.verdict).toBe("REFUTED");
    expect(report.refuted!.reason).toMatch(/signature/);
  });
});

describe("what a market tells its bound groups", () => {
  const told = (m: MarketLedger, entries: readonly Entry[]) =>
    notificationsFor(m.state, entries).get(groupAudience(m.state.table)) ?? [];

  it("is each new listing, a seat's or one posted from a group (marked by its platform), and each deal both owners signed by its item and quantity, never its price", async () => {
    const m = await MarketLedger.open({ members: ["ana", "ben"] });
    await bind(m, "telegram", "-1001");
    const offer = await m.list("ana", {
      side: "offer",
      title: "Bugaboo stroller",
      category: "baby-gear",
      quantity: 1,
      price: TWD(250000),
    });
    expect(told(m, offer)).toEqual([
      expect.objectContaining({
        type: "group_news",
        news: "listing",
        seq: offer[0]!.seq,
        side: "offer",
        title: "Bugaboo stroller",
        owner: "ana",
        price: TWD(250000),
        quantity: 1,
      }),
    ]);
    const want = m.l.append(groupListing(m, { owner: "ben", side: "want", title: "Stroller" }));
    const [news] = told(m, want);
    expect(news).toMatchObject({ news: "listing", via: "telegram", owner: "ben", side: "want" });
    const match = want.find((e) => e.kind === "system" && e.subkind === "match")!;
    const deal = m.l.append(await m.dealDraft(match.seq, "a".repeat(64)));
    expect(told(m, deal)).toEqual([
      {
        type: "group_news",
        id: `${m.state.table}:${deal[0]!.seq}:group_deal`,
        table: m.state.table,
        topic: m.state.config.topic,
        news: "deal",
        seq: deal[0]!.seq,
        title: "Bugaboo stroller",
        category: "baby-gear",
        quantity: 1,
      },
    ]);
  });

  it("is nothing else: no match, withdrawal or join, and nothing at all while no group is bound", async () => {
    const m = await MarketLedger.open({ members: ["ana", "ben"] });
    expect(told(m, await m.list("ana", { side: "offer", title: "Cot", category: "baby-gear", quantity: 1 }))).toEqual(
      [],
    );
    await bind(m, "discord", "1");
    const [listing] = await m.list("ben", { side: "offer", title: "Crib", category: "baby-gear", quantity: 1 });
    const wanted = await m.list("ana", { side: "want", title: "crib", category: "baby-gear", quantity: 1 });
    expect(told(m, wanted).map((n) => n.type === "group_news" && n.news)).toEqual(["listing"]);
    expect(told(m, await m.write("ben-bot", { kind: "unlist", listing: listing!.leaf }))).toEqual([]);
    expect(told(m, await m.admit("chen"))).toEqual([]);
  });
});
