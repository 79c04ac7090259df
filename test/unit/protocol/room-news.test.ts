/** Room news about an auction's settlement (docs/SPEC.md §11.3, §5.11): its price, or why no deal, and never the price about an e2e room. */
import { describe, expect, it } from "vitest";
import { notificationsFor, NotificationSchema, type Notification } from "../../../src/protocol/index.js";
import { commit, openAuction, reveal } from "../../support/auction-fixture.js";
import { RoomLedger, roomCast } from "../../support/room-fixture.js";

/** The room news among `events`. */
const news = (events: Notification[] | undefined) => (events ?? []).filter((e) => e.type === "room_news");

/** An auction ben buys and sara sells at the given bids; returns the entries the last reveal appended. */
async function settled(r: RoomLedger, buyer: number, seller: number) {
  const auction = await openAuction(r);
  await commit(r, "ben-bot", auction, "buyer", buyer);
  await commit(r, "sara-bot", auction, "seller", seller);
  await reveal(r, "ben-bot", auction, buyer);
  return reveal(r, "sara-bot", auction, seller);
}

describe("room news of an auction", () => {
  it("tells both owners (default setting) the auction settled with a deal at its price", async () => {
    const r = await RoomLedger.open();
    const added = await settled(r, 300000, 240000);
    for (const owner of [r.k.sara, r.k.ben]) {
      const [event] = news(notificationsFor(r.state, added).get(owner.publicKeyText));
      expect(event).toMatchObject({
        news: "auction_deal",
        seat: "sara-bot",
        terms: { amount: 270000, currency: "TWD" },
      });
      expect(NotificationSchema.parse(event)).toEqual(event);
    }
  });

  it("tells why an auction settled without a deal", async () => {
    const r = await RoomLedger.open();
    const added = await settled(r, 200000, 240000);
    expect(news(notificationsFor(r.state, added).get(r.k.ben.publicKeyText))).toMatchObject([
      { news: "auction_no_deal", reason: "bids_do_not_cross" },
    ]);
  });

  it("says nothing of the price about an e2e room", async () => {
    const r = await RoomLedger.open({ config: { room: { e2e: true } } });
    const added = await settled(r, 300000, 240000);
    const [event] = news(notificationsFor(r.state, added).get(r.k.ben.publicKeyText));
    expect(event).toMatchObject({ news: "auction_deal", seat: "sara-bot", e2e: true, topic: "" });
    expect(event).not.toHaveProperty("terms");
  });

  it("goes to no owner whose config says none", async () => {
    const k = await roomCast();
    const r = await RoomLedger.open(
      { config: { owners: { sara: { public_key: k.sara.publicKeyText, room_news: "none" } } } },
      k,
    );
    const added = await settled(r, 300000, 240000);
    const events = notificationsFor(r.state, added);
    expect(news(events.get(r.k.sara.publicKeyText))).toEqual([]);
    expect(news(events.get(r.k.ben.publicKeyText))).toMatchObject([{ news: "auction_deal" }]);
  });
});
