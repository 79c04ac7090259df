/**
 * Entering a match's room (src/owner/market-rooms.ts enterMatchRoom) reads the match and its room's
 * id from the market transcript the owner holds: given one (`marketTranscript`, a market seat's live
 * transcript say), it reads no export; the side that opens the room reads the match's citation to
 * create it, and the side that joins an opened room reads none.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { HttpClient, openTable, type FetchLike } from "../../../src/client/node.js";
import { enterMatchRoom, readTranscript } from "../../../src/owner/index.js";
import { fold, type Entry } from "../../../src/protocol/index.js";
import { uniqueTable } from "../../support/client-table.js";
import { sharedRelay, type LocalRelay } from "../../support/local-relay.js";
import { MarketHttp } from "../../support/market-http.js";
import type { Member } from "../../support/market-fixture.js";
import { memberHome, seatOf } from "../../support/market-rooms.js";
import { RelayHttp } from "../../support/relay-http.js";
import { expect201 } from "../../support/room-http.js";

let relay: LocalRelay;
beforeAll(async () => {
  relay = await sharedRelay();
}, 60_000);

/** A market where ben offers a stroller and ana wants one: the market, and the seq of their match. */
async function matched(): Promise<{ m: MarketHttp; seq: number }> {
  const m = await MarketHttp.open(new RelayHttp((u, init) => fetch(u, init), relay.url), uniqueTable("m-enter"), {
    members: ["ana", "ben"],
  });
  expect201(await m.list("ben", { side: "offer", title: "stroller", category: "baby-gear", quantity: 1 }));
  expect201(await m.list("ana", { side: "want", title: "stroller wanted", category: "baby-gear", quantity: 1 }));
  const entries: Entry[] = (await m.read("hana", `/tables/${m.id}/entries?from=1`)).body.items;
  return { m, seq: entries.find((e) => e.kind === "system" && e.subkind === "match")!.seq };
}

/** `member`'s side of the market from a home of its own, its HTTP requests logged in `requests`. */
async function side(m: MarketHttp, member: Member, requests: string[]) {
  const home = await memberHome(m, member);
  const logged: FetchLike = (input, init) => {
    requests.push(`${init?.method ?? "GET"} ${new URL(input).pathname}`);
    return fetch(input, init);
  };
  const market = await openTable({ relay: new HttpClient({ url: relay.url, fetch: logged }), table: m.id, home });
  const seatKey = async () => (await m.seatKey(seatOf(member))).publicKeyText;
  return { home, market, seatKey, owner: m.k.owners[member] };
}

describe("entering a match's room", () => {
  it("reads no export when given the market transcript; the opener reads the match's citation, the joiner none", async () => {
    const { m, seq } = await matched();
    const benRequests: string[] = [];
    const anaRequests: string[] = [];
    const ben = await side(m, "ben", benRequests);
    const ana = await side(m, "ana", anaRequests);
    const held = {
      ben: await readTranscript(ben.market, { signer: ben.owner, as: { owner: "ben" } }),
      ana: await readTranscript(ana.market, { signer: ana.owner, as: { owner: "ana" } }),
    };
    benRequests.length = 0;
    anaRequests.length = 0;

    const opened = await enterMatchRoom({
      market: ben.market,
      seq,
      owner: "ben",
      ownerSigner: ben.owner,
      seatKey: ben.seatKey,
      home: ben.home,
      marketTranscript: async () => held.ben,
    });
    const joined = await enterMatchRoom({
      market: ana.market,
      seq,
      owner: "ana",
      ownerSigner: ana.owner,
      seatKey: ana.seatKey,
      home: ana.home,
      marketTranscript: async () => held.ana,
    });

    expect([opened.how, joined.how]).toEqual(["opened", "joined"]);
    expect(joined.room).toBe(opened.room);
    expect(benRequests.filter((r) => r.includes("/export"))).toEqual([]);
    expect(anaRequests.filter((r) => r.includes("/export"))).toEqual([]);
    expect(benRequests.filter((r) => r.includes(`/matches/${seq}`))).toHaveLength(1);
    expect(anaRequests.filter((r) => r.includes("/matches/"))).toEqual([]);
  });

  describe("when the transcript given does not hold the match yet", () => {
    it("refuses with E_UNKNOWN_MATCH and creates nothing", async () => {
      const { m, seq } = await matched();
      const requests: string[] = [];
      const ben = await side(m, "ben", requests);
      const before = await readTranscript(ben.market, { signer: ben.owner, as: { owner: "ben" } });
      const entries = before.entries.filter((e) => e.seq < seq);
      const early = { ...before, entries, state: fold(entries) };
      requests.length = 0;
      await expect(
        enterMatchRoom({
          market: ben.market,
          seq,
          owner: "ben",
          ownerSigner: ben.owner,
          seatKey: ben.seatKey,
          home: ben.home,
          marketTranscript: async () => early,
        }),
      ).rejects.toMatchObject({ code: "E_UNKNOWN_MATCH" });
      expect(requests.filter((r) => r.startsWith("POST"))).toEqual([]);
    });
  });
});
