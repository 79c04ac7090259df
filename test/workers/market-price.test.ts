/**
 * A deal's shown price over HTTP (docs/SPEC.md §5.15, decision 0529): each owner's deal_sign in a
 * match's room may carry a consent to show the deal's terms; the market records them only when both
 * did. A consent by another key, for another deal or naming another match, or the signature sent
 * again, is refused with its code and the room's head unmoved; the market's export verifies CLEAN.
 */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { dealStatement, priceStatement, signStatement, verifyExport, type Entry } from "../../src/protocol/index.js";
import type { TableDO } from "../../durable-objects/table/table.js";
import { headUnmoved, RelayHttp } from "../support/relay-http.js";
import { MarketHttp } from "../support/market-http.js";
import { expect201 } from "../support/room-http.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));
const stub = (id: string) => env.TABLES.getByName(id);
type Member = "ana" | "ben" | "chen";

/** Market `id` with ana's stroller matched to ben's want, the match's room open with both seated, ana's offer accepted by ben. */
async function accepted(id: string) {
  const m = await MarketHttp.open(relay, id, { members: ["ana", "ben", "chen"] });
  expect201(
    await m.list("ana", {
      side: "offer",
      title: "Bugaboo stroller",
      category: "baby-gear",
      quantity: 1,
      price: { currency: "TWD", min: 300000 },
    }),
  );
  expect201(await m.list("ben", { side: "want", title: "stroller wanted", category: "baby-gear", quantity: 1 }));
  const seq = (await marketEntries(m)).find((e) => e.kind === "system" && e.subkind === "match")!.seq;
  const { room } = await m.openRoom("ben", seq);
  expect201(await m.joinAs("ben", room, "ben-room", { as: "owner" }));
  expect201(await m.joinAs("ana", room, "ana-room"));
  expect201(await m.write("ana-room", { kind: "offer", terms: { amount: 320000, currency: "TWD" } }, room));
  const offer = (await m.read("ana", `/tables/${room}/entries?from=1`, room)).body.items.at(-1).leaf as string;
  expect201(await m.write("ben-room", { kind: "accept", offer }, room));
  const deal = await runInDurableObject(
    stub(room),
    (instance: TableDO) => instance.table.state!.room!.deals[offer]!.terms_sha256,
  );
  return { m, seq, room, offer, deal };
}

async function marketEntries(m: MarketHttp): Promise<Entry[]> {
  return (await m.read("hana", `/tables/${m.id}/entries?from=1`)).body.items;
}

/** `member`'s deal_sign in `room`, with a consent signed by `consent.by` (default `member`) over `consent.deal` (default the deal) for `consent.match`. */
async function signDeal(
  m: MarketHttp,
  member: Member,
  room: string,
  offer: string,
  deal: string,
  consent?: { match: number; by?: Member; deal?: string; market?: string },
) {
  const key = m.k.owners[member];
  const owner_sig = await signStatement(key, "deal", dealStatement(room, deal));
  const show_price = consent && {
    market: consent.market ?? m.id,
    match: consent.match,
    sig: await signStatement(
      m.k.owners[consent.by ?? member],
      "price",
      priceStatement(consent.market ?? m.id, consent.match, consent.deal ?? deal),
    ),
  };
  return m.write(
    `${member}-room`,
    { kind: "deal_sign", offer, deal, owner_key: key.publicKeyText, owner_sig, ...(show_price ? { show_price } : {}) },
    room,
  );
}

async function recorded(m: MarketHttp, room: string): Promise<Entry> {
  const reply = await m.relay.request("POST", `/tables/${m.id}/deals`, { room });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return (await marketEntries(m))[reply.body.seq - 1]!;
}

describe("a deal's price in its market", () => {
  it("is recorded with the terms when both owners allowed showing it, and the market's export verifies CLEAN", async () => {
    const { m, seq, room, offer, deal } = await accepted("market-price-both");
    expect201(await signDeal(m, "ana", room, offer, deal, { match: seq }));
    expect201(await signDeal(m, "ben", room, offer, deal, { match: seq }));
    const entry = await recorded(m, room);
    expect(entry).toMatchObject({
      subkind: "deal_recorded",
      data: { deal, price: { terms: { table: room, terms: { amount: 320000, currency: "TWD" } } } },
    });
    const text = (await m.read("hana", `/tables/${m.id}/export`)).body as string;
    const report = await verifyExport(text, {
      relayKey: (await relay.request("GET", "/.well-known/trestle.json")).body.relay_key,
    });
    expect(report.verdict, JSON.stringify(report.refuted)).toBe("CLEAN");
  });

  it("is not shown when only one owner allowed it", async () => {
    const { m, seq, room, offer, deal } = await accepted("market-price-one");
    expect201(await signDeal(m, "ana", room, offer, deal, { match: seq }));
    expect201(await signDeal(m, "ben", room, offer, deal));
    const entry = await recorded(m, room);
    expect(entry).toMatchObject({ subkind: "deal_recorded", data: { deal } });
    expect(JSON.stringify(entry)).not.toContain("320000");
    expect(entry.kind === "system" && entry.subkind === "deal_recorded" && entry.data.price).toBeFalsy();
  });

  it("refuses a consent by a key not party to the deal, for another deal, naming another match or market, and one sent again, the head unmoved", async () => {
    const { m, seq, room, offer, deal } = await accepted("market-price-refusals");
    const refused = async (attempt: () => Promise<{ body: { error: { code: string } } }>) =>
      (await headUnmoved(relay, room, attempt)).body.error.code;
    expect(await refused(() => signDeal(m, "ana", room, offer, deal, { match: seq, by: "chen" }))).toBe(
      "E_BAD_SIGNATURE",
    );
    expect(await refused(() => signDeal(m, "ana", room, offer, deal, { match: seq, deal: "ef".repeat(32) }))).toBe(
      "E_BAD_SIGNATURE",
    );
    expect(await refused(() => signDeal(m, "ana", room, offer, deal, { match: seq + 1 }))).toBe("E_WRONG_TABLE");
    expect(await refused(() => signDeal(m, "ana", room, offer, deal, { match: seq, market: "m-another-market" }))).toBe(
      "E_WRONG_TABLE",
    );
    expect201(await signDeal(m, "ana", room, offer, deal, { match: seq }));
    expect(await refused(() => signDeal(m, "ana", room, offer, deal, { match: seq }))).toBe("E_NOT_ALLOWED");
  });
});
