/**
 * Deal certificates (docs/ROOMS.md "Deals", decision 0408): made from a room's verified export,
 * pending until both owners signed and never shown as done before, and checked offline with
 * nothing but the relay key: a certificate that claims other terms, status or signatures than its
 * export, or comes from another relay, does not hold.
 */
import { describe, expect, it } from "vitest";
import { checkDealCertificate, dealCertificateOf } from "../../../src/owner/index.js";
import { dealStatement, signStatement, verifyExport, type DealCertificate } from "../../../src/protocol/index.js";
import { dealLines } from "../../../src/text/deal.js";
import { RoomLedger, twd } from "../../support/room-fixture.js";
import { commit, openAuction, reveal } from "../../support/auction-fixture.js";

/** The stroller room with an accepted offer, signed by ben and, with `both`, by sara; its certificate. */
async function certificate(both: boolean): Promise<{ r: RoomLedger; cert: DealCertificate }> {
  const r = await RoomLedger.open();
  const offer = await r.offer("sara-bot", twd(280000, "stroller, folds flat"));
  await r.write("ben-bot", { kind: "accept", offer });
  const signers = both
    ? ([
        ["ben-bot", r.k.ben],
        ["sara-bot", r.k.sara],
      ] as const)
    : ([["ben-bot", r.k.ben]] as const);
  for (const [seat, owner] of signers) {
    const deal = r.state.room!.deals[offer]!.terms_sha256;
    await r.write(seat, {
      kind: "deal_sign",
      offer,
      deal,
      owner_key: owner.publicKeyText,
      owner_sig: await signStatement(owner, "deal", dealStatement(r.state.table, deal)),
    });
  }
  const text = await r.exportText();
  return { r, cert: dealCertificateOf(text, await verifyExport(text, { relayKey: r.k.relay.publicKeyText }), offer) };
}

/** Each owner's deal_sign of the deal on `leaf`, written by their seat. */
async function signBoth(r: RoomLedger, leaf: string): Promise<void> {
  for (const [seat, owner] of [
    ["ben-bot", r.k.ben],
    ["sara-bot", r.k.sara],
  ] as const) {
    const deal = r.state.room!.deals[leaf]!.terms_sha256;
    await r.write(seat, {
      kind: "deal_sign",
      offer: leaf,
      deal,
      owner_key: owner.publicKeyText,
      owner_sig: await signStatement(owner, "deal", dealStatement(r.state.table, deal)),
    });
  }
}

/** The stroller room's auction with ben bidding `bid` and sara asking `ask`, both revealed; the settlement is the last entry. */
async function settledAuction(bid: number, ask: number) {
  const r = await RoomLedger.open();
  const auction = await openAuction(r);
  await commit(r, "ben-bot", auction, "buyer", bid);
  await commit(r, "sara-bot", auction, "seller", ask);
  await reveal(r, "ben-bot", auction, bid);
  const settled = await reveal(r, "sara-bot", auction, ask);
  return { r, auction, settled };
}

describe("a deal certificate", () => {
  it("holds offline under the relay key, with both owners' signatures, once both signed", async () => {
    const { r, cert } = await certificate(true);
    expect(cert).toMatchObject({
      status: "done",
      signatures: [
        { owner: "ben", seat: "ben-bot" },
        { owner: "sara", seat: "sara-bot" },
      ],
      head: { seq: r.state.seq },
    });
    const check = await checkDealCertificate(JSON.parse(JSON.stringify(cert)), r.k.relay.publicKeyText);
    expect(check.ok).toBe(true);
    expect(dealLines(cert)[0]).toMatch(/DONE: both owners signed the same terms/);
  });

  it("says pending, naming who has not signed, while one owner has not", async () => {
    const { r, cert } = await certificate(false);
    expect(cert.status).toBe("pending");
    expect(dealLines(cert)[0]).toMatch(/PENDING: not final, waiting for sara to sign/);
    expect(dealLines(cert).join("\n")).not.toMatch(/DONE/);
    expect(await checkDealCertificate(cert, r.k.relay.publicKeyText)).toMatchObject({
      ok: true,
      certificate: { status: "pending" },
    });
  });

  describe("when the certificate does not say what its export says", () => {
    it("does not hold a pending deal claimed as done", async () => {
      const { r, cert } = await certificate(false);
      expect(await checkDealCertificate({ ...cert, status: "done" }, r.k.relay.publicKeyText)).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/not what its verified export says/),
      });
    });

    it("does not hold a tampered signature, price or head", async () => {
      const { r, cert } = await certificate(true);
      const key = r.k.relay.publicKeyText;
      const sig = cert.signatures[0]!.sig;
      const forgedSig = {
        ...cert,
        signatures: [
          { ...cert.signatures[0]!, sig: `${sig[0] === "A" ? "B" : "A"}${sig.slice(1)}` },
          cert.signatures[1]!,
        ],
      };
      expect((await checkDealCertificate(forgedSig, key)).ok).toBe(false);
      expect(
        (
          await checkDealCertificate(
            { ...cert, terms: { ...cert.terms, terms: twd(180000, "stroller, folds flat") } },
            key,
          )
        ).ok,
      ).toBe(false);
      expect((await checkDealCertificate({ ...cert, head: { ...cert.head, seq: 1 } }, key)).ok).toBe(false);
    });

    it("does not hold when the export's deal signature was altered, nor under another relay key", async () => {
      const { r, cert } = await certificate(true);
      const sig = cert.signatures[1]!.sig;
      const altered = { ...cert, export: cert.export.replace(sig, `${sig[0] === "A" ? "B" : "A"}${sig.slice(1)}`) };
      expect(await checkDealCertificate(altered, r.k.relay.publicKeyText)).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/REFUTED/),
      });
      expect(await checkDealCertificate(cert, r.k.sara.publicKeyText)).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/not the one you trust/),
      });
    });
  });

  describe("of a deal a sealed-bid auction settled", () => {
    it("names the seller and the buyer at the clearing price, and holds offline once both owners signed", async () => {
      const { r, auction, settled } = await settledAuction(300000, 250000);
      const deal = r.state.room!.deals[auction]!;
      expect(deal.terms).toMatchObject({
        via: "auction",
        offer_seq: r.state.room!.auctions[auction]!.seq,
        accept_seq: settled.at(-1)!.seq,
        offered_by: { owner: "sara", seat: "sara-bot" },
        accepted_by: { owner: "ben", seat: "ben-bot" },
        terms: { amount: 275000, currency: "TWD" },
      });
      await signBoth(r, auction);
      const text = await r.exportText();
      const cert = dealCertificateOf(text, await verifyExport(text, { relayKey: r.k.relay.publicKeyText }), auction);
      expect(cert).toMatchObject({ status: "done", signatures: [{ owner: "ben" }, { owner: "sara" }] });
      expect(dealLines(cert)[0]).toMatch(/^deal settled by auction #\d+ .*DONE: both owners signed the same terms/);
      expect(await checkDealCertificate(JSON.parse(JSON.stringify(cert)), r.k.relay.publicKeyText)).toMatchObject({
        ok: true,
      });
    });

    describe("when the auction settled without a deal", () => {
      it("refuses a deal_sign on it (E_NOT_ALLOWED, no_deal)", async () => {
        const { r, auction } = await settledAuction(200000, 250000);
        const owner_sig = await signStatement(r.k.ben, "deal", dealStatement(r.state.table, "0".repeat(64)));
        await expect(
          r.write("ben-bot", {
            kind: "deal_sign",
            offer: auction,
            deal: "0".repeat(64),
            owner_key: r.k.ben.publicKeyText,
            owner_sig,
          }),
        ).rejects.toMatchObject({ code: "E_NOT_ALLOWED", details: { reason: "no_deal" } });
      });
    });
  });
});
