/**
 * The client's side of a market (src/client/market.ts): a match's citation is checked before
 * anything is built on it (for this market and seq, signed by the pinned relay key, naming the room
 * its leaf determines), the room config it yields admits only a side of the match, and one owner's
 * matches are read from a fold. The relay is a fake fetch serving what the test chooses; the match
 * itself is made by the real policy through the swap market fixture.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { HttpClient, MarketClient, matchesOf, matchRoomConfigFor, TableClient } from "../../../src/client/index.js";
import type { MatchResponse } from "../../../src/protocol/index.js";
import { MarketLedger } from "../../support/market-fixture.js";
import { refusal } from "../protocol/fixtures.js";

let m: MarketLedger;
let seq: number;
let good: MatchResponse;

beforeAll(async () => {
  m = await MarketLedger.open({ members: ["ana", "ben", "chen"] });
  await m.list("ana", { side: "offer", title: "Bugaboo stroller", category: "baby-gear", quantity: 1 });
  const [match] = MarketLedger.matches(
    await m.list("ben", { side: "want", title: "stroller wanted", category: "baby-gear", quantity: 1 }),
  );
  seq = match!.seq;
  good = { citation: await m.cite(seq), room: m.state.market!.matches[String(seq)]!.room, deal: null };
});

/** A MarketClient of the swap market whose relay answers GET /matches/:seq with `answer`. */
async function serving(answer: unknown): Promise<MarketClient> {
  const fetch = async () =>
    new Response(JSON.stringify(answer), { status: 200, headers: { "content-type": "application/json" } });
  const http = new HttpClient({ url: "http://relay.test", fetch });
  return new MarketClient(await TableClient.open({ http, table: m.state.table, relayKey: m.k.relay.publicKeyText }));
}

describe("MarketClient.match", () => {
  it("accepts a citation signed by the pinned relay key for the room its match determines, and holds its head", async () => {
    const market = await serving(good);
    expect(await market.match(seq)).toEqual(good);
    expect(market.client.tracker.held).toMatchObject({ seq, sig: good.citation.sig });
  });

  describe("when the relay's answer cannot be trusted", () => {
    it.each([
      [
        "a signature the pinned key did not make",
        () => ({
          ...good,
          citation: { ...good.citation, sig: good.citation.sig.replace(/^./, (c) => (c === "A" ? "B" : "A")) },
        }),
        /not signed by the pinned relay key/,
      ],
      [
        "a match it does not cite",
        () => ({ ...good, citation: { ...good.citation, data: { ...good.citation.data, quantity: 2 } } }),
        /not signed by the pinned relay key/,
      ],
      [
        "another room than the match's",
        () => ({ ...good, room: `mr-${"0".repeat(40)}` }),
        /the room of match \d+ is mr-[0-9a-f]{40}, not mr-0{40}/,
      ],
      [
        "the citation of another match",
        () => ({ ...good, citation: { ...good.citation, seq: seq + 1 } }),
        /with the citation of match/,
      ],
    ])("refuses %s (E_BAD_RESPONSE) and holds no head", async (_, answer, message) => {
      const market = await serving(answer());
      const error = await refusal(() => market.match(seq));
      expect(error.code).toBe("E_BAD_RESPONSE");
      expect(error.message).toMatch(message);
      expect(market.client.tracker.held).toBeNull();
    });
  });
});

describe("matchRoomConfigFor", () => {
  it("makes the room a side opens: the match's id, the creator alone, one party to admit, the citation", () => {
    const config = matchRoomConfigFor(good, { owner: "ben", ownerKey: m.k.owners.ben.publicKeyText });
    expect(config).toMatchObject({
      id: good.room,
      owners: { ben: { public_key: m.k.owners.ben.publicKeyText } },
      room: { max_parties: 1, match: good.citation },
    });
  });

  it("refuses an owner key that is neither side (E_FORBIDDEN)", async () => {
    const error = await refusal(() =>
      matchRoomConfigFor(good, { owner: "chen", ownerKey: m.k.owners.chen.publicKeyText }),
    );
    expect(error.code).toBe("E_FORBIDDEN");
  });
});

describe("matchesOf", () => {
  it("gives each side its own listing, the other side and the room; nothing to an owner who is neither", () => {
    const match = m.state.market!.matches[String(seq)]!;
    expect(matchesOf(m.state, m.k.owners.ben.publicKeyText)).toEqual([
      {
        seq,
        side: "want",
        mine: match.want,
        theirs: match.offer,
        other: match.offered_by,
        quantity: 1,
        room: match.room,
        deal: null,
      },
    ]);
    expect(matchesOf(m.state, m.k.owners.ana.publicKeyText)).toMatchObject([
      { seq, side: "offer", mine: match.offer, other: { owner: "ben" } },
    ]);
    expect(matchesOf(m.state, m.k.owners.chen.publicKeyText)).toEqual([]);
  });
});
