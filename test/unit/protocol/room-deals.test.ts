/**
 * Deals both owners sign (docs/SPEC.md §5.10, docs/ROOMS.md "Deals"): an accept opens a pending
 * deal; it is done only once each party's owner recorded a deal_sign with the owner key over the
 * same terms hash; a signature by another key, over another hash, by a non-party or twice is
 * refused; and a verifier refutes a deal signature that does not verify.
 */
import { describe, expect, it } from "vitest";
import {
  dealHash,
  dealStatement,
  dealStatus,
  signStatement,
  verifyExport,
  type Signer,
} from "../../../src/protocol/index.js";
import { RoomLedger, twd } from "../../support/room-fixture.js";

/** The stroller room with cleo as a third party: sara offers, ben accepts. */
async function accepted(): Promise<{ r: RoomLedger; offer: string }> {
  const r = await RoomLedger.open();
  await r.admit("cleo", "cleo-bot");
  const offer = await r.offer("sara-bot", twd(280000, "stroller, folds flat"));
  await r.write("ben-bot", { kind: "accept", offer });
  return { r, offer };
}

/** `seat` records a deal_sign on `offer` signed by `owner` (its key named as `as`, default its own) over `hash` (default the deal's). */
async function sign(
  r: RoomLedger,
  seat: string,
  offer: string,
  owner: Signer,
  opts: { hash?: string; as?: string } = {},
) {
  const deal = opts.hash ?? r.state.room!.deals[offer]!.terms_sha256;
  const owner_sig = await signStatement(owner, "deal", dealStatement(r.state.table, deal));
  return r.write(seat, { kind: "deal_sign", offer, deal, owner_key: opts.as ?? owner.publicKeyText, owner_sig });
}

const dealOf = (r: RoomLedger, offer: string) => r.state.room!.deals[offer]!;

describe("a room's deal", () => {
  it("is opened by the accept with the final terms: both parties with their owner keys, the offer's terms, the offer's and the accept's seq", async () => {
    const { r, offer } = await accepted();
    const deal = dealOf(r, offer);
    expect(deal.terms).toEqual({
      scope: "deal",
      table: "r-stroller",
      offer,
      offer_seq: r.state.room!.offers[offer]!.seq,
      accept_seq: r.state.seq,
      offered_by: { owner: "sara", key: r.k.sara.publicKeyText, seat: "sara-bot" },
      accepted_by: { owner: "ben", key: r.k.ben.publicKeyText, seat: "ben-bot" },
      terms: twd(280000, "stroller, folds flat"),
    });
    expect(deal.terms_sha256).toBe(dealHash(deal.terms));
    expect(dealStatus(deal)).toBe("pending");
  });

  it("stays pending with one owner's signature and is done with both, and the export verifies CLEAN with both signatures checked", async () => {
    const { r, offer } = await accepted();
    await sign(r, "ben-bot", offer, r.k.ben);
    expect(dealStatus(dealOf(r, offer))).toBe("pending");
    const [signed] = await sign(r, "sara-bot", offer, r.k.sara);
    expect(dealOf(r, offer).signed).toEqual({ ben: signed!.seq - 1, sara: signed!.seq });
    expect(dealStatus(dealOf(r, offer))).toBe("done");
    expect((await verifyExport(await r.exportText(), { relayKey: r.k.relay.publicKeyText })).verdict).toBe("CLEAN");
  });

  it("may be signed after the room closed with that deal", async () => {
    const { r, offer } = await accepted();
    await r.write("sara-bot", { kind: "close", outcome: "deal", offer });
    await sign(r, "sara-bot", offer, r.k.sara);
    await sign(r, "ben-bot", offer, r.k.ben);
    expect(dealStatus(dealOf(r, offer))).toBe("done");
    expect((await verifyExport(await r.exportText(), { relayKey: r.k.relay.publicKeyText })).verdict).toBe("CLEAN");
  });

  describe("when a signature is not the deal's parties' own", () => {
    it("refuses another owner's key signing for a party's seat (E_NOT_OWNER)", async () => {
      const { r, offer } = await accepted();
      await expect(sign(r, "ben-bot", offer, r.k.cleo)).rejects.toMatchObject({ code: "E_NOT_OWNER" });
    });

    it("refuses an owner who is not a party to the deal (E_FORBIDDEN)", async () => {
      const { r, offer } = await accepted();
      await expect(sign(r, "cleo-bot", offer, r.k.cleo)).rejects.toMatchObject({ code: "E_FORBIDDEN" });
    });

    it("refuses a signature over another terms hash (E_TERMS_MISMATCH)", async () => {
      const { r, offer } = await accepted();
      const other = dealHash({ ...dealOf(r, offer).terms, terms: twd(180000, "stroller, folds flat") });
      await expect(sign(r, "ben-bot", offer, r.k.ben, { hash: other })).rejects.toMatchObject({
        code: "E_TERMS_MISMATCH",
      });
    });

    it("refuses an owner's second signature (E_NOT_ALLOWED, already_signed), also from another seat", async () => {
      const { r, offer } = await accepted();
      await r.l.join(r.k.ben, "ben", "ben-phone", await r.seatKey("ben-phone"));
      await sign(r, "ben-bot", offer, r.k.ben);
      await expect(sign(r, "ben-phone", offer, r.k.ben)).rejects.toMatchObject({
        code: "E_NOT_ALLOWED",
        details: { reason: "already_signed" },
      });
    });

    it("refuses a deal nobody accepted, and any signature after the room closed without it", async () => {
      const { r, offer } = await accepted();
      const open = await r.offer("ben-bot", twd(100000, "the rain cover"));
      await expect(sign(r, "ben-bot", open, r.k.ben, { hash: dealOf(r, offer).terms_sha256 })).rejects.toMatchObject({
        code: "E_NOT_ALLOWED",
        details: { reason: "no_deal" },
      });
      await r.write("sara-bot", { kind: "close", outcome: "no_deal" });
      await expect(sign(r, "ben-bot", offer, r.k.ben)).rejects.toMatchObject({ code: "E_CLOSED" });
    });
  });

  describe("when a deal signature does not verify", () => {
    it("refutes the export at a deal_sign whose owner signature is over other terms", async () => {
      const { r, offer } = await accepted();
      const deal = dealOf(r, offer).terms_sha256;
      const forged = await signStatement(
        r.k.ben,
        "deal",
        dealStatement(r.state.table, dealHash({ ...dealOf(r, offer).terms, accept_seq: 1 })),
      );
      const [entry] = await r.write("ben-bot", {
        kind: "deal_sign",
        offer,
        deal,
        owner_key: r.k.ben.publicKeyText,
        owner_sig: forged,
      });
      const report = await verifyExport(await r.exportText(), { relayKey: r.k.relay.publicKeyText });
      expect(report.verdict).toBe("REFUTED");
      expect(report.refuted).toMatchObject({
        seq: entry!.seq,
        reason: expect.stringMatching(/deal signature does not verify/),
      });
    });

    it("refutes the export at a deal_sign that names the party's owner key but was signed by another owner", async () => {
      const { r, offer } = await accepted();
      const [entry] = await sign(r, "ben-bot", offer, r.k.cleo, { as: r.k.ben.publicKeyText });
      const report = await verifyExport(await r.exportText(), { relayKey: r.k.relay.publicKeyText });
      expect(report.refuted).toMatchObject({
        seq: entry!.seq,
        reason: expect.stringMatching(/deal signature does not verify/),
      });
    });
  });
});
