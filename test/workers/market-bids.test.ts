/**
 * Sealed bids on a listing through the table object (docs/SPEC.md §5.15 "Sealed bids on a
 * listing", decision 0469): members commit over HTTP, a search shows the listing sealed with its
 * number of bids, a reveal before `until` is refused, the alarm set at `reveal_until` settles the
 * listing once (a sale's match in the same batch) after an eviction in between, the state folds
 * the same after another, the export verifies CLEAN, and the sale's room takes only the price.
 */
import { env, evictDurableObject, runDurableObjectAlarm, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { canonicalize, verifyExport, type Entry } from "../../src/protocol/index.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import { headUnmoved, RelayHttp } from "../support/relay-http.js";
import { MarketHttp } from "../support/market-http.js";
import { expect201 } from "../support/room-http.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));
const stub = (id: string) => env.TABLES.getByName(id) as DurableObjectStub<TableDO>;
const headSeq = async (id: string) => (await relay.request("GET", `/tables/${id}/head`)).body.seq as number;
const folded = (id: string) => runInDurableObject(stub(id), (instance: TableDO) => canonicalize(instance.table.state));
/** Sets the table object's clock to `at` until it is evicted. */
const clockAt = (id: string, at: number) =>
  runInDurableObject(stub(id), (instance: TableDO) => {
    instance.table.now = () => at;
  });

const HOUR = 3_600_000;

describe("sealed bids on a listing at the relay", () => {
  it("are settled by the alarm at reveal_until, after an eviction, once; the sale's match opens a room that takes only the price", async () => {
    const m = await MarketHttp.open(relay, "market-bids-alarm", { members: ["ana", "ben", "chen"] });
    const until = Date.now() + HOUR;
    const revealUntil = until + HOUR;
    const listed = expect201(
      await m.list("ana", {
        side: "offer",
        title: "Bugaboo stroller",
        category: "baby-gear",
        quantity: 1,
        price: { currency: "TWD", min: 200000 },
        sealed: { until, reveal_until: revealUntil },
      }),
    );
    const listing = (
      (await m.read("ana", `/tables/${m.id}/entries?from=${listed.body.seq}&to=${listed.body.seq}`)).body
        .items[0] as Entry
    ).leaf;
    expect201(await m.commitBid("ben", listing, 300000));
    expect201(await m.commitBid("chen", listing, 250000));
    const found = await m.read("chen", `/tables/${m.id}/listings?q=stroller`);
    expect(found.body.items).toEqual([
      expect.objectContaining({ leaf: listing, sealed: { until, reveal_until: revealUntil, bids: 2 } }),
    ]);
    const early = await headUnmoved(relay, m.id, () => m.revealBid("ben", listing, 300000));
    expect(early.body.error).toMatchObject({ code: "E_NOT_ALLOWED", details: { reason: "sealed", until } });

    await evictDurableObject(stub(m.id));
    expect(await runInDurableObject(stub(m.id), (_instance: TableDO, state) => state.storage.getAlarm())).toBe(
      revealUntil,
    );
    await clockAt(m.id, until);
    expect201(await m.revealBid("ben", listing, 300000));
    await evictDurableObject(stub(m.id));

    const before = await headSeq(m.id);
    await clockAt(m.id, revealUntil);
    expect(await runDurableObjectAlarm(stub(m.id))).toBe(true);
    expect(await headSeq(m.id)).toBe(before + 2);
    await runInDurableObject(stub(m.id), (instance: TableDO) => instance.alarm());
    expect(await headSeq(m.id)).toBe(before + 2);
    const state = await folded(m.id);
    await evictDurableObject(stub(m.id));
    expect(await folded(m.id)).toBe(state);

    const entries = (await m.read("hana", `/tables/${m.id}/entries?from=${before + 1}`)).body.items as Entry[];
    expect(entries.map((e) => (e.kind === "system" ? e.subkind : e.kind))).toEqual(["listing_settled", "match"]);
    expect(entries[0]).toMatchObject({
      data: { listing, outcome: "sold", winner: { owner: "ben" }, price: 200000, currency: "TWD" },
    });
    const text = (await m.read("hana", `/tables/${m.id}/export`)).body as string;
    const report = await verifyExport(text, {
      relayKey: (await relay.request("GET", "/.well-known/trestle.json")).body.relay_key,
    });
    expect(report.verdict, JSON.stringify(report.refuted)).toBe("CLEAN");

    const seq = entries[1]!.seq;
    expect((await m.citation("ben", seq)).data.sale).toEqual({ price: 200000, currency: "TWD" });
    const { room } = await m.openRoom("ben", seq);
    expect201(await m.joinAs("ben", room, "ben-room", { as: "owner" }));
    expect201(await m.joinAs("ana", room, "ana-room"));
    const other = await headUnmoved(relay, room, () =>
      m.write("ana-room", { kind: "offer", terms: { amount: 300000, currency: "TWD" } }, room),
    );
    expect(other.body.error).toMatchObject({ code: "E_NOT_ALLOWED", details: { reason: "sale_price" } });
    expect201(await m.write("ana-room", { kind: "offer", terms: { amount: 200000, currency: "TWD" } }, room));
  });
});
