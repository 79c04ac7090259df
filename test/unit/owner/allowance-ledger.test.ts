/**
 * What became of an allowance's commitments, judged from a match room's ledger alone (docs/MARKETS.md
 * "An owner's allowance"): a deal both owners signed is spent at its amount, an offer that ended
 * without one is released, and whatever the ledger does not settle stays counted. Driven through
 * the protocol's own admit on an in-memory match room.
 */
import { describe, expect, it } from "vitest";
import { EXPIRY_MARGIN_MS, fateOf, settleRoom, type AllowanceCommitment } from "../../../src/owner/index.js";
import { dealStatement, joinDraft, signJoin, signStatement, type DistributiveOmit, type Entry, type SubmissionInput } from "../../../src/protocol/index.js";
import { MarketLedger } from "../../support/market-fixture.js";
import type { MemoryLedger } from "../../support/table-fixture.js";

/** A match room where ana sells a stroller to ben: ben (the buyer) opened it and seated ben-room; ana joined as the other side with ana-room. */
async function strollerRoom(): Promise<{ m: MarketLedger; room: MemoryLedger; say: (seat: "ana-room" | "ben-room", input: DistributiveOmit<SubmissionInput, "table" | "nonce" | "seat">) => Promise<Entry> }> {
  const m = await MarketLedger.open();
  await m.list("ana", { side: "offer", title: "Bugaboo stroller", category: "baby-gear", quantity: 1 });
  const [match] = MarketLedger.matches(await m.list("ben", { side: "want", title: "stroller", category: "baby-gear", quantity: 1 }));
  const room = await m.openRoom(match!.seq, "ben");
  await room.join(m.k.owners.ben, "ben", "ben-room", await m.seatKey("ben-room"));
  const key = m.k.owners.ana;
  const join = { table: room.state!.table, seat: "ana-room", owner: "ana", seat_key: (await m.seatKey("ana-room")).publicKeyText, human: false, nonce: "ana-joins-the-match-room", expires: room.now + 60_000, owner_key: key.publicKeyText };
  room.append(joinDraft(room.state!, await signJoin(key, join, { summary: "ana sells" })));
  const say = async (seat: "ana-room" | "ben-room", input: DistributiveOmit<SubmissionInput, "table" | "nonce" | "seat">) =>
    (await room.submit(await m.seatKey(seat), { seat, ...input } as Omit<SubmissionInput, "table" | "nonce">)).at(0)!;
  return { m, room, say };
}

const usd = (amount: number) => ({ amount, currency: "USD" as const });

/** A commitment of ben's (the buyer) made by `entry`, as the guard reserved it before sending. */
function reserved(entry: Entry, over: Partial<AllowanceCommitment> = {}): AllowanceCommitment {
  return {
    room: entry.table,
    seat: entry.seat!,
    kind: entry.kind,
    nonce: "nonce" in entry ? entry.nonce : "",
    message_sha256: "0".repeat(64),
    side: "buyer",
    amount: 5_000,
    currency: "USD",
    state: "open",
    process: { pid: 1, host: "elsewhere" },
    at: 1,
    ...over,
  };
}

describe("the fate of a commitment in its room", () => {
  it("is open while an offer is live, released once it is rejected, countered or expired, open while its deal waits, and spent once both owners signed", async () => {
    const { m, room, say } = await strollerRoom();
    const fate = (leaf: string, at = room.now) => fateOf(room.state!, leaf, at).fate;
    const rejected = await say("ben-room", { kind: "offer", terms: usd(5_000) });
    expect(fate(rejected.leaf)).toBe("open");
    await say("ana-room", { kind: "reject", offer: rejected.leaf });
    expect(fate(rejected.leaf)).toBe("released");
    const countered = await say("ben-room", { kind: "offer", terms: usd(5_000) });
    const counter = await say("ana-room", { kind: "counter", offer: countered.leaf, terms: usd(6_000) });
    expect(fate(countered.leaf)).toBe("released");
    const expiring = await say("ben-room", { kind: "offer", terms: usd(4_000), expires: room.now + 10_000 });
    expect(fate(expiring.leaf, room.now + 10_000)).toBe("open");
    expect(fate(expiring.leaf, room.now + 10_000 + EXPIRY_MARGIN_MS)).toBe("released");
    await say("ben-room", { kind: "accept", offer: counter.leaf });
    expect(fate(counter.leaf)).toBe("open");
    const deal = room.state!.room!.deals[counter.leaf]!;
    for (const [seat, owner] of [["ben-room", "ben"], ["ana-room", "ana"]] as const) {
      const key = m.k.owners[owner];
      await say(seat, { kind: "deal_sign", offer: counter.leaf, deal: deal.terms_sha256, owner_key: key.publicKeyText, owner_sig: await signStatement(key, "deal", dealStatement(room.state!.table, deal.terms_sha256)) });
    }
    expect(fateOf(room.state!, counter.leaf, room.now)).toEqual({ fate: "spent", amount: 6_000, currency: "USD" });
  });

  it("is released for an offer still open when the room closed without a deal, and open for what the ledger does not know", async () => {
    const { room, say } = await strollerRoom();
    const offer = await say("ben-room", { kind: "offer", terms: usd(5_000) });
    await say("ana-room", { kind: "close", outcome: "no_deal" });
    expect(fateOf(room.state!, offer.leaf, room.now).fate).toBe("released");
    expect(fateOf(room.state!, "f".repeat(64), room.now).fate).toBe("open");
  });
});

describe("settling a room's commitments", () => {
  it("finds each write's entry by its nonce, keeps what the ledger does not show unless its process ended, leaves other rooms alone, and counts one deal once", async () => {
    const { room, say } = await strollerRoom();
    const offer = await say("ben-room", { kind: "offer", terms: usd(5_000) });
    const unsent = reserved(offer, { nonce: "never-reached-the-relay" });
    const elsewhere = reserved(offer, { room: "mr-another-room", seq: 3, deal: "e".repeat(64) });
    const twin = reserved(offer, { kind: "deal_sign", nonce: "a-later-write-on-it", seq: 9, deal: offer.leaf });
    const judged = { room: room.state!.table, state: room.state!, entries: room.entries, now: room.now };
    const kept = settleRoom([reserved(offer), unsent, elsewhere, twin], { ...judged, ended: () => false });
    expect(kept).toEqual([{ ...reserved(offer), seq: offer.seq, deal: offer.leaf }, unsent, elsewhere]);
    expect(settleRoom([unsent], { ...judged, ended: (c) => c.nonce === unsent.nonce })).toEqual([]);
  });
});
