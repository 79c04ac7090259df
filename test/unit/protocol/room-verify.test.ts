/**
 * Verifying a room's ledger (docs/SPEC.md §8.2, §5.10): a whole negotiation verifies CLEAN, and a
 * relay that alters a body under a real signature, records an accept on other terms, seats an owner
 * nobody invited or uses an invite twice is refuted by any verifier.
 */
import { describe, expect, it } from "vitest";
import { verifyExport, type Entry, type UnchainedEntry } from "../../../src/protocol/index.js";
import { RoomLedger, twd } from "../../support/room-fixture.js";
import { nonceOf } from "../../support/table-fixture.js";
import { copy, exportOf, handSigned, headOver, rechain } from "./fixtures.js";

/** A whole negotiation: ben and cleo invited, counters, an accept, a grant, cleo ejected, a deal. */
async function negotiation(): Promise<{ r: RoomLedger; accepted: string }> {
  const r = await RoomLedger.open();
  await r.admit("cleo", "cleo-bot");
  const ask = await r.offer("sara-bot", twd(360000, "stroller, folds flat"));
  const counter = await r.counter("ben-bot", ask, twd(250000));
  const again = await r.counter("sara-bot", counter, twd(280000));
  await r.write("ben-bot", { kind: "accept", offer: again });
  await r.write("sara-bot", {
    kind: "grant",
    grantee: "ben-bot",
    scope: "pickup:address",
    expires: r.l.now + 86_400_000,
  });
  await r.eject("cleo-bot");
  await r.write("sara-bot", { kind: "close", outcome: "deal", offer: again });
  return { r, accepted: again };
}

/** The export of `entries` (re-chained, as a lying relay would) with a relay-signed head over them. */
async function forged(r: RoomLedger, entries: readonly (Entry | UnchainedEntry)[]): Promise<string> {
  const chained = rechain(entries);
  return exportOf(r.k.relay, chained, [await headOver(r.k.relay, chained)], r.state.table);
}

const pinned = (r: RoomLedger) => ({ relayKey: r.k.relay.publicKeyText });

describe("a room's export", () => {
  it("verifies CLEAN: invites, parties, counters, accept, grant, ejection and close all replay", async () => {
    const { r } = await negotiation();
    const report = await verifyExport(await r.exportText(), pinned(r));
    expect(report.verdict).toBe("CLEAN");
    expect(report.coverage.policy_replay).toBe("full");
  });

  describe("when the relay misbehaves", () => {
    it("refutes an offer's amount altered by the relay under the seat's real signature", async () => {
      const { r } = await negotiation();
      const entries = copy(r.l.entries);
      const offer = entries.find((e) => e.kind === "offer")!;
      if (offer.kind !== "offer") throw new Error("no offer");
      offer.terms = twd(160000, "stroller, folds flat");
      const report = await verifyExport(await forged(r, entries), pinned(r));
      expect(report.verdict).toBe("REFUTED");
      expect(report.refuted).toMatchObject({
        seq: offer.seq,
        reason: expect.stringMatching(/entry signature does not verify/),
      });
    });

    it("refutes a body altered by the relay under the seat's real signature", async () => {
      const { r } = await negotiation();
      const entries = copy(r.l.entries);
      const accept = entries.find((e) => e.kind === "accept")!;
      if (accept.kind !== "accept") throw new Error("no accept");
      accept.body = "I accept, and I will also pay for shipping";
      expect((await verifyExport(await forged(r, entries), pinned(r))).verdict).toBe("REFUTED");
    });

    it("refutes an accept the seat really signed but on other terms than the offer (policy replay)", async () => {
      const r = await RoomLedger.open();
      const ask = await r.offer("sara-bot", twd(280000));
      const at = { seq: r.l.entries.length + 1, ts: r.l.now };
      const accept = await handSigned(
        await r.seatKey("ben-bot"),
        { seat: "ben-bot", kind: "accept", offer: ask, terms: twd(100), table: "r-stroller" } as Parameters<
          typeof handSigned
        >[1],
        at,
      );
      const report = await verifyExport(await forged(r, [...r.l.entries, accept]), pinned(r));
      expect(report.verdict).toBe("REFUTED");
      expect(report.refuted!.reason).toMatch(/E_TERMS_MISMATCH/);
    });

    it.each([
      ["with an invite the creator never issued", () => nonceOf("never issued")],
      ["with an invite that was already used", (r: RoomLedger) => r.lastInvite],
    ])("refutes an owner seated %s", async (_, invite) => {
      const r = await RoomLedger.open();
      const join = {
        ...(await r.inviteJoinDraft("cleo", "cleo-bot", invite(r))),
        seq: r.l.entries.length + 1,
        ts: r.l.now,
      } as UnchainedEntry;
      const report = await verifyExport(await forged(r, [...r.l.entries, join]), pinned(r));
      expect(report.verdict).toBe("REFUTED");
      expect(report.refuted!.reason).toMatch(/E_INVITE/);
    });

    describe("after a party was ejected", () => {
      /** sara's room with ben's two seats; ben ejected through ben-bot. */
      async function ejected(): Promise<RoomLedger> {
        const r = await RoomLedger.open();
        await r.l.join(r.k.ben, "ben", "ben-2", await r.seatKey("ben-2"));
        await r.eject("ben-bot");
        return r;
      }
      /** ben-2's offer, signed with its real key, as the entry after `entries`. */
      const byOtherSeat = async (r: RoomLedger, entries: readonly (Entry | UnchainedEntry)[]) =>
        handSigned(
          await r.seatKey("ben-2"),
          { seat: "ben-2", kind: "offer", terms: twd(200000), table: "r-stroller" } as Parameters<typeof handSigned>[1],
          { seq: entries.length + 1, ts: r.l.now },
        );

      it("refutes a later entry by the party's other seat", async () => {
        const r = await ejected();
        const entries = [...r.l.entries, await byOtherSeat(r, r.l.entries)];
        const report = await verifyExport(await forged(r, entries), pinned(r));
        expect(report.verdict).toBe("REFUTED");
        expect(report.refuted).toMatchObject({ seq: entries.length, reason: expect.stringMatching(/E_UNKNOWN_SEAT/) });
      });

      it("refutes a ledger that let the party's other seat stay (one seat_left, as a relay ejecting one seat would record)", async () => {
        const r = await ejected();
        const oneSeat = r.l.entries.filter(
          (e) => !(e.kind === "system" && e.subkind === "seat_left" && e.data.seat === "ben-2"),
        );
        const entries = [...oneSeat, await byOtherSeat(r, oneSeat)];
        const report = await verifyExport(await forged(r, entries), pinned(r));
        expect(report.verdict).toBe("REFUTED");
        expect(report.refuted).toMatchObject({
          seq: oneSeat.length + 1,
          reason: expect.stringContaining('expected system seat_left {"reason":"ejected","seat":"ben-2"}'),
        });
      });
    });

    it("refutes a ledger that drops the close's table_closed", async () => {
      const { r } = await negotiation();
      const report = await verifyExport(await forged(r, r.l.entries.slice(0, -1)), pinned(r));
      expect(report.verdict).toBe("REFUTED");
      expect(report.refuted!.reason).toMatch(/lacks the system table_closed/);
    });
  });
});
