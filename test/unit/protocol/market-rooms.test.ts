/**
 * From a match to a room and back (docs/SPEC.md §5.15, decision 0460): the room of a match cites it
 * with the relay's signed head and takes the id the match determines; the other side joins with
 * its own key and no invite; the market records the deal both owners signed and closes its
 * quantity. Verifiers refute a market whose matches were hidden, invented or altered, a room whose
 * citation is not the relay's, and a deal record whose signatures are not the owners'.
 */
import { describe, expect, it } from "vitest";
import { joinDraft, signJoin, verifyExport, type Entry, type UnchainedEntry } from "../../../src/protocol/index.js";
import { MarketLedger } from "../../support/market-fixture.js";
import type { MemoryLedger } from "../../support/table-fixture.js";
import { copy, exportOf, headOver, refusal, rechain } from "./fixtures.js";

/** The swap market with ana's stroller matched to ben's want; `seq` is the match's. */
async function matched(): Promise<{ m: MarketLedger; seq: number }> {
  const m = await MarketLedger.open();
  await m.list("ana", {
    side: "offer",
    title: "Bugaboo stroller",
    category: "baby-gear",
    quantity: 1,
    price: { currency: "TWD", min: 300000 },
  });
  const [match] = MarketLedger.matches(
    await m.list("ben", { side: "want", title: "stroller", category: "baby-gear", quantity: 1 }),
  );
  return { m, seq: match!.seq };
}

/** `owner` joins `room` as `<owner>-bot` with its own key and no invite (the match's other side). */
async function joinAsOtherSide(
  m: MarketLedger,
  room: MemoryLedger,
  owner: "ana" | "ben" | "chen",
  name: string = owner,
) {
  const key = m.k.owners[owner];
  const seat = `${owner}-room`;
  const request = await signJoin(
    key,
    {
      table: room.state!.table,
      seat,
      owner: name,
      seat_key: (await m.seatKey(seat)).publicKeyText,
      human: false,
      nonce: `join-${owner}-room-000000`,
      expires: room.now + 60_000,
      owner_key: key.publicKeyText,
    },
    { summary: `${owner} in the match's room` },
  );
  return room.append(joinDraft(room.state!, request));
}

const pinned = (m: MarketLedger) => ({ relayKey: m.k.relay.publicKeyText });

async function forgedExport(
  m: MarketLedger,
  entries: readonly (Entry | UnchainedEntry)[],
  table: string,
): Promise<string> {
  const chained = rechain(entries);
  return exportOf(m.k.relay, chained, [await headOver(m.k.relay, chained)], table);
}

describe("the room of a match", () => {
  it("opens under the id the match determines, and the other side joins with its own key and no invite", async () => {
    const { m, seq } = await matched();
    const room = await m.openRoom(seq, "ben");
    expect(room.state!.table).toBe(m.state.market!.matches[String(seq)]!.room);
    await joinAsOtherSide(m, room, "ana");
    expect(room.state!.room!.parties.ana).toMatchObject({ public_key: m.k.owners.ana.publicKeyText, invite: null });
  });

  it("exports CLEAN, its citation checked as the relay's head over the market at the match", async () => {
    const { m, seq } = await matched();
    const room = await m.openRoom(seq, "ana");
    await joinAsOtherSide(m, room, "ben");
    const report = await verifyExport(
      exportOf(m.k.relay, room.entries, [await room.head()], room.state!.table),
      pinned(m),
    );
    expect(report.verdict).toBe("CLEAN");
  });

  describe("when the config or a join does not fit the match", () => {
    it("refuses another id, a creator who is neither side, two owners, or more parties (E_SCHEMA)", async () => {
      const { m, seq } = await matched();
      expect(
        await refusal(() => m.openRoom(seq, "ana", { id: "mr-0000000000000000000000000000000000000000" })),
      ).toMatchObject({ code: "E_SCHEMA" });
      expect(await refusal(() => m.openRoom(seq, "chen"))).toMatchObject({ code: "E_SCHEMA" });
      const both = {
        ana: { public_key: m.k.owners.ana.publicKeyText },
        ben: { public_key: m.k.owners.ben.publicKeyText },
      };
      expect(await refusal(() => m.openRoom(seq, "ana", { owners: both }))).toMatchObject({ code: "E_SCHEMA" });
      const citation = await m.cite(seq);
      expect(await refusal(() => m.openRoom(seq, "ana", { room: { match: citation, max_parties: 2 } }))).toMatchObject({
        code: "E_SCHEMA",
      });
    });

    it("refuses a match room's id to a config that cites no match (E_SCHEMA)", async () => {
      const { m, seq } = await matched();
      const config = await m.roomConfig(seq, "ana");
      expect(await refusal(() => m.openRoom(seq, "ana", { room: {}, id: config.id }))).toMatchObject({
        code: "E_SCHEMA",
      });
    });

    it("refuses a third owner, the other side under another name, and the other side joining twice (E_FORBIDDEN)", async () => {
      const { m, seq } = await matched();
      const room = await m.openRoom(seq, "ana");
      expect(await refusal(() => joinAsOtherSide(m, room, "chen"))).toMatchObject({ code: "E_FORBIDDEN" });
      expect(await refusal(() => joinAsOtherSide(m, room, "ben", "benjamin"))).toMatchObject({ code: "E_FORBIDDEN" });
      await joinAsOtherSide(m, room, "ben");
      const key = m.k.owners.ben;
      const again = await signJoin(
        key,
        {
          table: room.state!.table,
          seat: "ben-second",
          owner: "ben2",
          seat_key: (await m.seatKey("ben-second")).publicKeyText,
          human: false,
          nonce: "join-ben-second-0000",
          expires: room.now + 60_000,
          owner_key: key.publicKeyText,
        },
        { summary: "again" },
      );
      expect(await refusal(() => room.append(joinDraft(room.state!, again)))).toMatchObject({ code: "E_FORBIDDEN" });
    });

    it("is refuted by a verifier when the creator signed a citation whose head signature is not the relay's", async () => {
      const { m, seq } = await matched();
      const citation = await m.cite(seq);
      // A real relay signature, but over the market's head one entry before the match: admit alone cannot tell.
      const room = await m.openRoom(seq, "ana", {
        room: { match: { ...citation, sig: (await headOver(m.k.relay, m.l.entries, seq - 1)).sig } },
      });
      const report = await verifyExport(
        exportOf(m.k.relay, room.entries, [await room.head()], room.state!.table),
        pinned(m),
      );
      expect(report.verdict).toBe("REFUTED");
      expect(report.refuted).toMatchObject({ seq: 1, reason: expect.stringMatching(/head signature does not verify/) });
    });

    it("is refuted by a verifier when the relay altered the citation under the creator's signature", async () => {
      const { m, seq } = await matched();
      const room = await m.openRoom(seq, "ana");
      const entries = copy(room.entries);
      const first = entries[0]!;
      if (first.kind !== "system" || first.subkind !== "table_opened" || !first.data.config.room?.match)
        throw new Error("no citation");
      first.data.config.room.match.data.quantity = 2;
      const report = await verifyExport(await forgedExport(m, entries, room.state!.table), pinned(m));
      expect(report.verdict).toBe("REFUTED");
      expect(report.refuted).toMatchObject({ seq: 1 });
    });
  });
});

describe("a market's export", () => {
  it("verifies CLEAN with its listings, matches and a recorded deal replayed", async () => {
    const { m, seq } = await matched();
    m.l.append(await m.dealDraft(seq, "cd".repeat(32)));
    const report = await verifyExport(await m.exportText(), pinned(m));
    expect(report.verdict).toBe("CLEAN");
    expect(report.coverage.policy_replay).toBe("full");
  });

  describe("when the relay hides, invents or alters a match", () => {
    it("refutes a hidden match", async () => {
      const { m, seq } = await matched();
      const entries = copy(m.l.entries).filter((e) => e.seq !== seq);
      const report = await verifyExport(
        await forgedExport(
          m,
          entries.map((e, i) => ({ ...e, seq: i + 1 })),
          m.state.table,
        ),
        pinned(m),
      );
      expect(report.verdict).toBe("REFUTED");
    });

    it("refutes an invented match", async () => {
      const { m, seq } = await matched();
      const report = await verifyExport(
        await forgedExport(m, m.withInventedMatch(seq, "chen"), m.state.table),
        pinned(m),
      );
      expect(report.verdict).toBe("REFUTED");
    });

    it("refutes a match whose quantity the relay changed", async () => {
      const { m, seq } = await matched();
      const entries = copy(m.l.entries);
      const match = entries[seq - 1]!;
      if (match.kind !== "system" || match.subkind !== "match") throw new Error("no match");
      match.data.quantity = 5;
      const report = await verifyExport(await forgedExport(m, entries, m.state.table), pinned(m));
      expect(report.verdict).toBe("REFUTED");
      expect(report.refuted).toMatchObject({ seq });
    });

    it("refutes a recorded deal whose signature is not the owner's", async () => {
      const { m, seq } = await matched();
      m.l.append(await m.dealDraft(seq, "cd".repeat(32)));
      const entries = copy(m.l.entries);
      const deal = entries[entries.length - 1]!;
      if (deal.kind !== "system" || deal.subkind !== "deal_recorded") throw new Error("no deal");
      deal.data.deal = "ef".repeat(32);
      const report = await verifyExport(await forgedExport(m, entries, m.state.table), pinned(m));
      expect(report.verdict).toBe("REFUTED");
      expect(report.refuted?.reason).toMatch(/deal signature does not verify/);
    });
  });
});

describe("a recorded deal", () => {
  it("closes the match's quantity on both listings; a listing with none left is filled", async () => {
    const { m, seq } = await matched();
    const match = m.state.market!.matches[String(seq)]!;
    const [entry] = m.l.append(await m.dealDraft(seq, "cd".repeat(32)));
    expect(m.state.market!.matches[String(seq)]!.deal).toBe(entry!.seq);
    expect(m.state.market!.listings[match.offer]).toMatchObject({ closed: 1, status: "filled", ended: entry!.seq });
    expect(m.state.market!.deals).toBe(1);
  });

  describe("when the record does not fit the match", () => {
    it("refuses signatures by keys the match does not name (E_NOT_OWNER), another room (E_WRONG_TABLE), a wrong quantity or a second record (E_NOT_ALLOWED), an unknown match (E_UNKNOWN_MATCH)", async () => {
      const { m, seq } = await matched();
      expect(
        await refusal(async () => m.l.append(await m.dealDraft(seq, "cd".repeat(32), { signers: ["ana", "chen"] }))),
      ).toMatchObject({ code: "E_NOT_OWNER" });
      expect(
        await refusal(async () => m.l.append(await m.dealDraft(seq, "cd".repeat(32), { room: "mr-elsewhere" }))),
      ).toMatchObject({ code: "E_WRONG_TABLE" });
      expect(
        await refusal(async () => m.l.append(await m.dealDraft(seq, "cd".repeat(32), { quantity: 2 }))),
      ).toMatchObject({ code: "E_NOT_ALLOWED", details: { reason: "quantity" } });
      const unknown = await m.dealDraft(seq, "cd".repeat(32));
      expect(await refusal(() => m.l.append({ ...unknown, data: { ...unknown.data, match: 1 } }))).toMatchObject({
        code: "E_UNKNOWN_MATCH",
      });
      m.l.append(await m.dealDraft(seq, "cd".repeat(32)));
      expect(await refusal(async () => m.l.append(await m.dealDraft(seq, "cd".repeat(32))))).toMatchObject({
        code: "E_NOT_ALLOWED",
        details: { reason: "already_recorded" },
      });
    });
  });
});
