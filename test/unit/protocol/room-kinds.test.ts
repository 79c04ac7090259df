/** Room kinds (docs/SPEC.md §5.10): each rule of offer, counter, accept, reject, withdraw, grant, revoke and close, and each refusal. */
import { beforeEach, describe, expect, it } from "vitest";
import {
  fold,
  liveGrants,
  liveOffers,
  projectEntry,
  type Entry,
  type TableState,
} from "../../../src/protocol/index.js";
import { RoomLedger, twd } from "../../support/room-fixture.js";
import { cast, MemoryLedger } from "../../support/table-fixture.js";
import { kindOf, openConfig, refusal } from "./fixtures.js";
import { refused } from "../../support/refused.js";

let r: RoomLedger;
beforeEach(async () => {
  r = await RoomLedger.open();
});

const statusOf = (state: TableState, leaf: string) => state.room!.offers[leaf]!.status;

describe("offers and counters", () => {
  it("records a live offer, named by its entry's leaf hash", async () => {
    const leaf = await r.offer("sara-bot", twd(360000, "stroller, folds flat"));
    expect(r.state.room!.offers[leaf]).toMatchObject({
      seat: "sara-bot",
      owner: "sara",
      kind: "offer",
      status: "open",
      terms: twd(360000, "stroller, folds flat"),
    });
    expect(liveOffers(r.state, r.l.now).map(([l]) => l)).toEqual([leaf]);
  });

  it("ends the countered offer and makes the counter the live one", async () => {
    const ask = await r.offer("sara-bot", twd(360000));
    const counter = await r.counter("ben-bot", ask, twd(250000));
    expect(statusOf(r.state, ask)).toBe("countered");
    expect(r.state.room!.offers[counter]).toMatchObject({
      kind: "counter",
      counters: ask,
      status: "open",
      owner: "ben",
    });
    expect(liveOffers(r.state, r.l.now).map(([l]) => l)).toEqual([counter]);
  });

  it("lets an offer expire: after its expiry it is not live", async () => {
    const leaf = await r.offer("sara-bot", twd(360000), { expires: r.l.now + 1500 });
    expect(liveOffers(r.state, r.l.now).length).toBe(1);
    r.l.now += 5000;
    expect(liveOffers(r.state, r.l.now).length).toBe(0);
    await refused("E_NOT_LIVE", () => r.write("ben-bot", { kind: "accept", offer: leaf }), { unmoved: r });
  });

  describe("when a counter is not allowed", () => {
    it("refuses countering your own party's offer", async () => {
      const ask = await r.offer("sara-bot", twd(360000));
      await refused("E_FORBIDDEN", () => r.write("sara-bot", { kind: "counter", offer: ask, terms: twd(300000) }), {
        unmoved: r,
      });
    });

    it("refuses countering an offer that is no longer live", async () => {
      const ask = await r.offer("sara-bot", twd(360000));
      await r.counter("ben-bot", ask, twd(250000));
      await refused("E_NOT_LIVE", () => r.write("ben-bot", { kind: "counter", offer: ask, terms: twd(260000) }), {
        unmoved: r,
      });
    });

    it("refuses an offer whose expiry has already passed", async () => {
      await refused(
        "E_EXPIRED",
        () => r.write("sara-bot", { kind: "offer", terms: twd(360000), expires: r.l.now - 1 }),
        { unmoved: r },
      );
    });
  });
});

describe("accepting", () => {
  it("inherits the offer's terms: an accept without the amount agrees to exactly the offer's amount", async () => {
    const ask = await r.offer("sara-bot", twd(280000, "with the rain cover"));
    const [entry] = await r.write("ben-bot", { kind: "accept", offer: ask });
    expect(entry).not.toHaveProperty("terms");
    expect(r.state.room!.offers[ask]).toMatchObject({
      status: "accepted",
      accepted_by: "ben-bot",
      terms: twd(280000, "with the rain cover"),
    });
  });

  it("accepts a restatement of exactly the offer's terms", async () => {
    const ask = await r.offer("sara-bot", twd(280000));
    await r.write("ben-bot", { kind: "accept", offer: ask, terms: twd(280000) });
    expect(statusOf(r.state, ask)).toBe("accepted");
  });

  describe("when the accept does not fit the offer", () => {
    it.each([
      ["another amount", twd(100)],
      [
        "the same amount in another currency (100 TWD accepted as 100 USD)",
        { amount: 280000, currency: "USD" as const },
      ],
      ["the offer's amount without its text", twd(280000)],
      ["text only", { text: "deal" }],
    ])("refuses restating %s with E_TERMS_MISMATCH", async (_, terms) => {
      const ask = await r.offer("sara-bot", twd(280000, "with the rain cover"));
      await refused("E_TERMS_MISMATCH", () => r.write("ben-bot", { kind: "accept", offer: ask, terms }), {
        unmoved: r,
      });
    });

    it("refuses accepting your own party's offer", async () => {
      const ask = await r.offer("sara-bot", twd(280000));
      await r.l.join(r.k.sara, "sara", "sara-2", await r.seatKey("sara-2"));
      await refused("E_FORBIDDEN", () => r.write("sara-2", { kind: "accept", offer: ask }), { unmoved: r });
    });

    it("refuses an offer hash the room does not hold", async () => {
      await refused("E_UNKNOWN_OFFER", () => r.write("ben-bot", { kind: "accept", offer: "0".repeat(64) }), {
        unmoved: r,
      });
    });

    it("refuses accepting twice, and accepting a withdrawn or rejected offer", async () => {
      const first = await r.offer("sara-bot", twd(280000));
      await r.write("ben-bot", { kind: "accept", offer: first });
      await refused("E_NOT_LIVE", () => r.write("ben-bot", { kind: "accept", offer: first }), { unmoved: r });
      const second = await r.offer("sara-bot", twd(290000));
      await r.write("sara-bot", { kind: "withdraw", offer: second });
      await refused("E_NOT_LIVE", () => r.write("ben-bot", { kind: "accept", offer: second }), { unmoved: r });
      const third = await r.offer("sara-bot", twd(300000));
      await r.write("ben-bot", { kind: "reject", offer: third });
      await refused("E_NOT_LIVE", () => r.write("ben-bot", { kind: "accept", offer: third }), { unmoved: r });
    });

    it("refuses accepting the offer of a seat that was ejected", async () => {
      await r.admit("cleo", "cleo-bot");
      const ask = await r.offer("cleo-bot", twd(200000));
      await r.eject("cleo-bot");
      await refused("E_NOT_LIVE", () => r.write("ben-bot", { kind: "accept", offer: ask }), { unmoved: r });
    });
  });
});

describe("rejecting and withdrawing", () => {
  it("ends a rejected offer", async () => {
    const ask = await r.offer("sara-bot", twd(360000));
    await r.write("ben-bot", { kind: "reject", offer: ask, body: "too much" });
    expect(statusOf(r.state, ask)).toBe("rejected");
  });

  it("ends a withdrawn offer", async () => {
    const ask = await r.offer("sara-bot", twd(360000));
    await r.write("sara-bot", { kind: "withdraw", offer: ask });
    expect(statusOf(r.state, ask)).toBe("withdrawn");
  });

  describe("when it is not allowed", () => {
    it("refuses rejecting your own party's offer", async () => {
      const ask = await r.offer("sara-bot", twd(360000));
      await refused("E_FORBIDDEN", () => r.write("sara-bot", { kind: "reject", offer: ask }), { unmoved: r });
    });

    it("refuses a withdraw by anyone but the offer's author, even a seat of the same owner", async () => {
      const ask = await r.offer("sara-bot", twd(360000));
      await refused("E_FORBIDDEN", () => r.write("ben-bot", { kind: "withdraw", offer: ask }), { unmoved: r });
      await r.l.join(r.k.sara, "sara", "sara-2", await r.seatKey("sara-2"));
      await refused("E_FORBIDDEN", () => r.write("sara-2", { kind: "withdraw", offer: ask }), { unmoved: r });
    });

    it("refuses withdrawing an offer that is no longer live", async () => {
      const ask = await r.offer("sara-bot", twd(360000));
      await r.write("ben-bot", { kind: "accept", offer: ask });
      await refused("E_NOT_LIVE", () => r.write("sara-bot", { kind: "withdraw", offer: ask }), { unmoved: r });
    });
  });
});

describe("grants", () => {
  it("derives live grants from the ledger: granted, then revoked or expired", async () => {
    const [g1] = await r.write("sara-bot", {
      kind: "grant",
      grantee: "ben-bot",
      scope: "pickup:address",
      expires: r.l.now + 60_000,
    });
    const [g2] = await r.write("sara-bot", {
      kind: "grant",
      grantee: "ben-bot",
      scope: "photos",
      expires: r.l.now + 3_000,
    });
    expect(liveGrants(r.state, r.l.now).map(([leaf]) => leaf)).toEqual([g1!.leaf, g2!.leaf]);
    await r.write("sara-bot", { kind: "revoke", grant: g1!.leaf });
    expect(liveGrants(r.state, r.l.now).map(([leaf]) => leaf)).toEqual([g2!.leaf]);
    expect(liveGrants(r.state, r.l.now + 10_000)).toEqual([]);
  });

  describe("when a grant or revoke is not allowed", () => {
    it("refuses a grantee that is not in the room, and granting to yourself", async () => {
      await refused(
        "E_UNKNOWN_SEAT",
        () => r.write("sara-bot", { kind: "grant", grantee: "nobody", scope: "x", expires: r.l.now + 60_000 }),
        { unmoved: r },
      );
      await refused(
        "E_NOT_ALLOWED",
        () => r.write("sara-bot", { kind: "grant", grantee: "sara-bot", scope: "x", expires: r.l.now + 60_000 }),
        { unmoved: r },
      );
    });

    it("refuses a grant that has already expired", async () => {
      await refused(
        "E_EXPIRED",
        () => r.write("sara-bot", { kind: "grant", grantee: "ben-bot", scope: "x", expires: r.l.now }),
        { unmoved: r },
      );
    });

    it("lets only the grantor revoke, only while live", async () => {
      const [g] = await r.write("sara-bot", {
        kind: "grant",
        grantee: "ben-bot",
        scope: "x",
        expires: r.l.now + 60_000,
      });
      await refused("E_FORBIDDEN", () => r.write("ben-bot", { kind: "revoke", grant: g!.leaf }), { unmoved: r });
      await r.write("sara-bot", { kind: "revoke", grant: g!.leaf });
      await refused("E_NOT_LIVE", () => r.write("sara-bot", { kind: "revoke", grant: g!.leaf }), { unmoved: r });
      await refused("E_UNKNOWN_GRANT", () => r.write("sara-bot", { kind: "revoke", grant: "1".repeat(64) }), {
        unmoved: r,
      });
    });
  });
});

describe("closing a room", () => {
  it("closes with a deal on an accepted offer, recording the outcome", async () => {
    const ask = await r.offer("sara-bot", twd(280000));
    await r.write("ben-bot", { kind: "accept", offer: ask });
    const added = await r.write("sara-bot", { kind: "close", outcome: "deal", offer: ask });
    expect(added.map(kindOf)).toEqual(["close", "table_closed"]);
    expect(added[1]).toMatchObject({ data: { reason: "deal" } });
    expect(r.state.room!.outcome).toEqual({ seq: added[0]!.seq, outcome: "deal", offer: ask, auction: null });
    await refused("E_CLOSED", () => r.offer("sara-bot", twd(1)), { unmoved: r });
  });

  it("closes without a deal, by any seat", async () => {
    const added = await r.write("ben-bot", { kind: "close", outcome: "no_deal", body: "too far apart" });
    expect(added[1]).toMatchObject({ subkind: "table_closed", data: { reason: "no_deal" } });
  });

  describe("when the close does not fit", () => {
    it("refuses a deal on an offer nobody accepted", async () => {
      const ask = await r.offer("sara-bot", twd(280000));
      await refused("E_NOT_ALLOWED", () => r.write("sara-bot", { kind: "close", outcome: "deal", offer: ask }), {
        unmoved: r,
      });
    });

    it("refuses a deal without its offer, and no deal naming one", async () => {
      const ask = await r.offer("sara-bot", twd(280000));
      await refused("E_SCHEMA", () => r.write("sara-bot", { kind: "close", outcome: "deal" }), { unmoved: r });
      await refused("E_SCHEMA", () => r.write("sara-bot", { kind: "close", outcome: "no_deal", offer: ask }), {
        unmoved: r,
      });
    });

    it("refuses a deal closed by a seat that is not a party to it", async () => {
      await r.admit("cleo", "cleo-bot");
      const ask = await r.offer("sara-bot", twd(280000));
      await r.write("ben-bot", { kind: "accept", offer: ask });
      await refused("E_FORBIDDEN", () => r.write("cleo-bot", { kind: "close", outcome: "deal", offer: ask }), {
        unmoved: r,
      });
    });
  });
});

describe("when a room kind is written outside a room", () => {
  it("refuses it with E_NOT_ALLOWED", async () => {
    const k = await cast();
    const l = new MemoryLedger(k.relay);
    await l.create(k.ops, "ops", openConfig(k));
    await l.join(k.tao, "tao", "x", k.botTao);
    const error = await refusal(() =>
      l.submit(k.botTao, { seat: "x", kind: "offer", terms: twd(1) } as Parameters<typeof l.submit>[1]),
    );
    expect(error.code).toBe("E_NOT_ALLOWED");
  });
});

describe("the fold", () => {
  it("rebuilds exactly the state the writes produced", async () => {
    const ask = await r.offer("sara-bot", twd(360000));
    const counter = await r.counter("ben-bot", ask, twd(250000));
    const again = await r.counter("sara-bot", counter, twd(280000));
    await r.write("ben-bot", { kind: "accept", offer: again });
    await r.write("sara-bot", {
      kind: "grant",
      grantee: "ben-bot",
      scope: "pickup:address",
      expires: r.l.now + 60_000,
    });
    await r.write("sara-bot", { kind: "close", outcome: "deal", offer: again });
    expect(fold(r.l.entries as Entry[])).toEqual(r.state);
  });
});

describe("the projection of room entries", () => {
  it("shows the fields a seat signed (terms, the offer an answer names), not the entry's own hash", async () => {
    const ask = await r.offer("sara-bot", twd(360000), { body: "barely used" });
    const [accept] = await r.write("ben-bot", { kind: "accept", offer: ask });
    const offerEntry = r.l.entries.find((e) => e.leaf === ask)!;
    expect(projectEntry(offerEntry)).toEqual({
      seq: offerEntry.seq,
      kind: "offer",
      seat: "sara-bot",
      body: "barely used",
      data: { terms: twd(360000) },
    });
    expect(projectEntry(accept!)).toEqual({ seq: accept!.seq, kind: "accept", seat: "ben-bot", data: { offer: ask } });
  });
});
