/**
 * The owner's standing rule "sign deals within my mandate" (docs/ROOMS.md "Deals", decision 0420),
 * on a real relay: a deal whose final terms the mandate allows is signed by the owner's own client
 * with the owner key in its home as soon as the seat's accept has left; a deal outside the mandate
 * stays pending for the owner, with the reason.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createKeyFile, ownerKeyPath } from "../../../src/client/node.js";
import { dealIn, dealSignatures, roomState, standingDealLines, type StandingDeal } from "../../../src/owner/index.js";
import { dealStatus, sha256, utf8 } from "../../../src/protocol/index.js";
import { sharedRelay, type LocalRelay } from "../../support/local-relay.js";
import { mandate, offerFrom, strollerRoom, type Side } from "../../support/room-client.js";
import { twd } from "../../support/room-fixture.js";

let relay: LocalRelay;
beforeAll(async () => {
  relay = await sharedRelay();
}, 60_000);

/** Puts `side`'s owner key (the room cast's) in its home, where the standing rule finds it. */
async function ownerKeyHere(side: Side): Promise<void> {
  await createKeyFile(ownerKeyPath(side.home, side.owner), "owner", side.owner, {
    seed: sha256(utf8(`owner:${side.owner}`)),
  });
}

describe("the standing rule to sign deals within the mandate", { timeout: 60_000 }, () => {
  it("signs the deal within the mandate with the owner key once the accept left, and leaves one outside it pending", async () => {
    const { sara, ben } = await strollerRoom(relay.url);
    await Promise.all([ownerKeyHere(sara), ownerKeyHere(ben)]);
    await mandate(sara, { money: { currency: "TWD", cap: 500000, floor: 240000 }, sign_deals: "within_mandate" });
    await mandate(ben, { money: { currency: "TWD", cap: 300000 }, sign_deals: "within_mandate" });
    const offer = await offerFrom(sara, twd(280000, "stroller, folds flat"));
    // Sara tightens her floor after offering: her own deal at 2,800.00 is now outside her mandate.
    await mandate(sara, { money: { currency: "TWD", cap: 500000, floor: 290000 }, sign_deals: "within_mandate" });

    const accepted = await ben.guard.send({ kind: "accept", offer });
    expect(accepted.deals).toEqual([
      { offer, offer_seq: expect.any(Number), signed: true, seq: accepted.seq + 1 },
    ] satisfies StandingDeal[]);
    expect(standingDealLines(accepted)).toEqual([
      `your standing rule signed the deal on #${accepted.deals![0]!.offer_seq} with your owner key (entry #${accepted.seq + 1})`,
    ]);
    const saraSide = await sara.guard.signStandingDeals();
    expect(saraSide).toEqual([
      {
        offer,
        offer_seq: expect.any(Number),
        signed: false,
        reason: expect.stringMatching(/2,800\.00 TWD .* is below the mandate's floor 2,900\.00 TWD/),
      },
    ]);

    const transcript = await sara.guard.transcript();
    const deal = dealIn(roomState(transcript), offer);
    expect(dealStatus(deal)).toBe("pending");
    expect(dealSignatures(transcript.entries, deal)).toMatchObject([
      { owner: "ben", seat: "ben-bot", key: ben.ownerKey.publicKeyText },
    ]);
  });

  it("under agent_view rules names no amount of the cap or floor in why a deal waits", async () => {
    const { sara, ben } = await strollerRoom(relay.url);
    await Promise.all([ownerKeyHere(sara), ownerKeyHere(ben)]);
    await mandate(sara, {
      money: { currency: "TWD", cap: 500000, floor: 240000 },
      sign_deals: "within_mandate",
      agent_view: "rules",
    });
    await mandate(ben, { money: { currency: "TWD", cap: 300000 } });
    const offer = await offerFrom(sara, twd(280000, "stroller, folds flat"));
    await mandate(sara, {
      money: { currency: "TWD", cap: 500000, floor: 290000 },
      sign_deals: "within_mandate",
      agent_view: "rules",
    });
    await ben.guard.send({ kind: "accept", offer });
    const [waiting] = await sara.guard.signStandingDeals();
    expect(waiting).toEqual({
      offer,
      offer_seq: expect.any(Number),
      signed: false,
      reason: "2,800.00 TWD (280000 minor units) is below the mandate's floor",
    });
    expect(standingDealLines({ deals: [waiting!] }).join("\n")).not.toMatch(/2,?900|290000/);
  });

  describe("when the mandate holds no standing rule", () => {
    it("signs nothing: the deal waits for both owners", async () => {
      const { sara, ben } = await strollerRoom(relay.url);
      await Promise.all([ownerKeyHere(sara), ownerKeyHere(ben)]);
      await mandate(sara, { money: { currency: "TWD", cap: 500000 } });
      await mandate(ben, { money: { currency: "TWD", cap: 300000 } });
      const offer = await offerFrom(sara, twd(280000));
      const accepted = await ben.guard.send({ kind: "accept", offer });
      expect(accepted.deals).toBeUndefined();
      expect(dealIn(roomState(await ben.guard.transcript()), offer).signed).toEqual({});
    });
  });
});
