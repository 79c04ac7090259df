/**
 * Markets over HTTP (docs/SPEC.md §5.15): members admitted by key-bound invites join without a code,
 * listings match at once, searches answer live listings, a match's room opens under the id the
 * match determines with the relay's citation checked, the other side joins without an invite, the
 * deal both owners sign is recorded back in the market, and every refusal leaves the head where it
 * was; the market's state folds identically after eviction and its export verifies CLEAN.
 */
import { env, evictDurableObject, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { canonicalize, signInvite, verifyExport, type Entry } from "../../src/protocol/index.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import { headUnmoved, RelayHttp } from "../support/relay-http.js";
import { MarketHttp } from "../support/market-http.js";
import { expect201 } from "../support/room-http.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));
const stub = (id: string) => env.TABLES.getByName(id);
const folded = (id: string) => runInDurableObject(stub(id), (instance: TableDO) => canonicalize(instance.table.state));

async function entries(m: MarketHttp, table = m.id): Promise<Entry[]> {
  return (await m.read("hana", `/tables/${table}/entries?from=1`, table)).body.items;
}

/** The swap market `id` with ana's stroller and ben's want, matched; `seq` is the match's. */
async function matched(id: string): Promise<{ m: MarketHttp; seq: number; offer: string }> {
  const m = await MarketHttp.open(relay, id, { members: ["ana", "ben", "chen"] });
  const listed = expect201(
    await m.list("ana", {
      side: "offer",
      title: "Bugaboo stroller",
      category: "baby-gear",
      quantity: 1,
      price: { currency: "TWD", min: 300000 },
    }),
  );
  expect201(await m.list("ben", { side: "want", title: "stroller wanted", category: "baby-gear", quantity: 1 }));
  const all = await entries(m);
  const match = all.find((e) => e.kind === "system" && e.subkind === "match")!;
  return { m, seq: match.seq, offer: all[listed.body.seq - 1]!.leaf };
}

describe("a market over HTTP", () => {
  it("admits members by invites bound to their keys (no code), matches a want with an offer at once, and answers searches", async () => {
    const { m, seq, offer } = await matched("market-http-1");
    const all = await entries(m);
    expect(all[seq - 1]).toMatchObject({
      kind: "system",
      subkind: "match",
      data: { offer, words: ["stroller"], offered_by: { owner: "ana" }, wanted_by: { owner: "ben" } },
    });
    const found = await m.read("chen", `/tables/${m.id}/listings?category=baby-gear&side=offer&q=Strollers`);
    expect(found.status).toBe(200);
    expect(found.body.items).toEqual([
      expect.objectContaining({
        leaf: offer,
        owner: "ana",
        title: "Bugaboo stroller",
        left: 1,
        price: { currency: "TWD", min: 300000 },
      }),
    ]);
    expect((await m.read("chen", `/tables/${m.id}/listings?q=crib`)).body.items).toEqual([]);
  });

  describe("when a request does not fit", () => {
    it("refuses an unknown query parameter (E_SCHEMA), an unsigned read of a members-only market (E_AUTH), and a match that is not one (E_UNKNOWN_MATCH)", async () => {
      const { m } = await matched("market-http-refusals");
      expect((await m.read("ana", `/tables/${m.id}/listings?price=1`)).body.error.code).toBe("E_SCHEMA");
      expect((await relay.request("GET", `/tables/${m.id}/listings`)).body.error.code).toBe("E_AUTH");
      expect((await m.read("ana", `/tables/${m.id}/matches/2`)).body.error.code).toBe("E_UNKNOWN_MATCH");
      expect((await m.read("ana", `/tables/${m.id}/matches/zero`)).body.error.code).toBe("E_SCHEMA");
    });

    it("refuses a non-member's join, and a listing past the rules, leaving the head where it was", async () => {
      const { m } = await matched("market-http-nonmember");
      const join = await headUnmoved(relay, m.id, () => m.joinAs("dora", m.id, "dora-bot"));
      expect(join.body.error).toMatchObject({ code: "E_INVITE", details: { reason: "no_invite" } });
      const bad = await headUnmoved(relay, m.id, () =>
        m.list("ana", { side: "offer", title: "Bike", category: "bikes", quantity: 1 }),
      );
      expect(bad.body.error.code).toBe("E_SCHEMA");
    });
  });

  it("refuses another owner's key on an invite bound to a key, on the plain join route, with the reason (E_INVITE, other_key)", async () => {
    const m = await MarketHttp.open(relay, "market-http-other-key", { members: [] });
    const invite = "bound-to-dora-0000";
    expect201(
      await relay.request(
        "POST",
        `/tables/${m.id}/invites`,
        await signInvite(m.k.owners.hana, {
          table: m.id,
          invite,
          expires: Date.now() + 60_000,
          owner_key: m.k.owners.dora.publicKeyText,
        }),
      ),
    );
    const join = await headUnmoved(relay, m.id, () => m.joinAs("chen", m.id, "chen-bot", { invite }));
    expect(join.body.error).toMatchObject({ code: "E_INVITE", details: { reason: "other_key" } });
    expect201(await m.joinAs("dora", m.id, "dora-bot", { invite }));
  });

  it("lets anyone search a public market without a signature", async () => {
    const m = await MarketHttp.open(relay, "market-http-public", { members: ["ana"], overrides: { public: true } });
    expect201(await m.list("ana", { side: "offer", title: "Picture books", category: "books", quantity: 3 }));
    const found = await relay.request("GET", `/tables/${m.id}/listings?category=books`);
    expect(found.status).toBe(200);
    expect(found.body.items).toHaveLength(1);
  });
});

describe("from a match to a deal over HTTP", () => {
  it("opens the match's room, the other side joins without an invite, both owners sign, and the market records the deal", async () => {
    const { m, seq } = await matched("market-http-deal");
    const { reply, room } = await m.openRoom("ben", seq);
    expect(reply.status).toBe(201);
    expect(room).toMatch(/^mr-[0-9a-f]{40}$/);
    expect201(await m.joinAs("ben", room, "ben-room", { as: "owner" }));
    expect201(await m.joinAs("ana", room, "ana-room"));
    expect201(await m.write("ana-room", { kind: "offer", terms: { amount: 320000, currency: "TWD" } }, room));
    const offer = (await m.read("ana", `/tables/${room}/entries?from=1`, room)).body.items.at(-1).leaf;
    expect201(await m.write("ben-room", { kind: "accept", offer }, room));
    const deal = await runInDurableObject(
      stub(room),
      (instance: TableDO) => instance.table.state!.room!.deals[offer]!.terms_sha256,
    );
    expect201(await m.signDeal("ana", room, "ana-room", offer, deal));
    expect201(await m.signDeal("ben", room, "ben-room", offer, deal));
    // The room asks its market as soon as the deal is done; asking again answers the same entry.
    const recorded = await m.relay.request("POST", `/tables/${m.id}/deals`, { room });
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(201);
    const entry = (await entries(m))[recorded.body.seq - 1]!;
    expect(entry).toMatchObject({
      subkind: "deal_recorded",
      data: { match: seq, room, deal, quantity: 1, signatures: [{ owner: "ana" }, { owner: "ben" }] },
    });
    expect((await m.relay.request("POST", `/tables/${m.id}/deals`, { room })).body.seq).toBe(recorded.body.seq);
    // The listing is filled: no search finds it.
    expect((await m.read("chen", `/tables/${m.id}/listings?q=stroller`)).body.items).toEqual([]);
    for (const [table, as] of [
      [m.id, "hana"],
      [room, "ana"],
    ] as const) {
      const text = (await m.read(as, `/tables/${table}/export`, table)).body as string;
      const report = await verifyExport(text, {
        relayKey: (await relay.request("GET", "/.well-known/trestle.json")).body.relay_key,
      });
      expect(report.verdict, `${table}: ${JSON.stringify(report.refuted)}`).toBe("CLEAN");
    }
  });

  describe("when the room or the record does not fit", () => {
    it("refuses a citation not signed by this relay (E_BAD_SIGNATURE), a third owner (E_FORBIDDEN), and a deal record before any deal (E_NOT_ALLOWED)", async () => {
      const { m, seq } = await matched("market-http-room-refusals");
      const citation = await m.citation("ana", seq);
      const match = (await m.read("ana", `/tables/${m.id}/matches/${seq}`)).body;
      const forged = await m.relay.create(m.k.owners.ana, "ana", {
        id: match.room,
        topic: "forged",
        owners: { ana: { public_key: m.k.owners.ana.publicKeyText } },
        topology: { kind: "open" },
        termination: { any: [{ max_entries: 200 }] },
        room: {
          match: {
            ...citation,
            sig: citation.sig.slice(0, 10) + (citation.sig[10] === "A" ? "B" : "A") + citation.sig.slice(11),
          },
        },
      });
      expect(forged.body.error.code).toBe("E_BAD_SIGNATURE");
      const { room } = await m.openRoom("ana", seq);
      expect((await m.joinAs("chen", room, "chen-room")).body.error.code).toBe("E_FORBIDDEN");
      expect((await m.relay.request("POST", `/tables/${m.id}/deals`, { room })).body.error.code).toBe("E_NOT_ALLOWED");
      expect((await m.relay.request("POST", `/tables/${m.id}/deals`, { room: "t-not-a-room" })).body.error.code).toBe(
        "E_TABLE_NOT_FOUND",
      );
    });
  });
});

describe("a market's state", () => {
  it("folds identically after eviction: members, listings, matches", async () => {
    const { m } = await matched("market-http-evict");
    const before = await folded(m.id);
    await evictDurableObject(stub(m.id));
    expect(await folded(m.id)).toBe(before);
    expect201(await m.list("chen", { side: "want", title: "stroller, any", category: "baby-gear", quantity: 1 }));
  });
});
