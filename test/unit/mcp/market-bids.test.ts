/**
 * Sealed bids through the market profile (docs/MCP.md "Markets", decision 0528), against a local
 * relay with the official SDK client: ana's offer takes sealed bids; her agent's update keeps its
 * terms; ben's agent finds it with `sealed: true` (phase and window structured), a bid past his
 * mandate's cap is refused before signing and leaves no journal record, his bid commits only a hash,
 * and once bidding closed his reveal settles the sale at the reserve.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ownerKeyPath, seatKeyPath } from "../../../src/client/node.js";
import type { McpSettings } from "../../../src/mcp/config.js";
import { profileTools } from "../../../src/mcp/profiles.js";
import { seatFiles, seatJournal, setMandate, type MandateFields } from "../../../src/owner/index.js";
import { uniqueTable } from "../../support/client-table.js";
import { sharedRelay } from "../../support/local-relay.js";
import type { Member } from "../../support/market-fixture.js";
import { MarketHttp } from "../../support/market-http.js";
import { memberHome, seatOf } from "../../support/market-rooms.js";
import { inProcess, textOf, type Mcp } from "../../support/mcp.js";
import { RelayHttp } from "../../support/relay-http.js";

const TOOLS = profileTools("market");
let m: MarketHttp;
let relayUrl = "";
const homes = {} as Record<Member, string>;

function settingsOf(member: Member): McpSettings {
  const home = homes[member];
  return {
    url: relayUrl,
    home,
    owner: member,
    ownerKeyFile: ownerKeyPath(home, member),
    seat: seatOf(member),
    seatKeyFile: seatKeyPath(home, seatOf(member)),
    table: m.id,
  };
}

beforeAll(async () => {
  relayUrl = (await sharedRelay()).url;
  m = await MarketHttp.open(new RelayHttp((u, init) => fetch(u, init), relayUrl), uniqueTable("m-mcp-bids"), {
    members: ["ana", "ben"],
  });
  for (const member of ["ana", "ben"] as const) {
    homes[member] = await memberHome(m, member);
    const fields: MandateFields = {
      table: m.id,
      seat: seatOf(member),
      owner: member,
      never_disclose: [],
      require_confirm: [],
      paused: false,
      money: { currency: "USD", cap: 50_000 },
    };
    await setMandate(seatFiles(homes[member], m.id, seatOf(member)).mandate, m.k.owners[member], fields, {
      now: Date.now(),
    });
  }
}, 60_000);

async function ok<T = Record<string, unknown>>(mcp: Mcp, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await mcp.call(name, args);
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as T;
}

describe("sealed bids through the market profile", { timeout: 60_000 }, () => {
  it("lists, keeps the terms on update, bids (a refused bid leaves no record), reveals and settles", async () => {
    const ana = await inProcess(settingsOf("ana"), null, [], { tools: TOOLS });
    const ben = await inProcess(settingsOf("ben"), null, [], { tools: TOOLS });
    try {
      const until = Date.now() + 6_000;
      const listed = await m.list("ana", {
        side: "offer",
        title: "wooden cot",
        category: "baby-gear",
        quantity: 1,
        price: { currency: "USD", min: 2_000 },
        sealed: { until, reveal_until: until + 3_600_000 },
      });
      expect(listed.status).toBe(201);
      const first = (
        await ok<{ listings: { leaf: string; seq: number }[] }>(ana, "trestle_market_search", { sealed: true })
      ).listings[0]!;
      const updated = await ok<{ listing: string; seq: number }>(ana, "trestle_market_update", {
        listing: first.seq,
        title: "wooden cot, with mattress",
      });
      const found = await ok<{ listings: { leaf: string; sealed: Record<string, unknown> | null }[] }>(
        ben,
        "trestle_market_search",
        { sealed: true },
      );
      expect(found.listings).toEqual([
        expect.objectContaining({
          leaf: updated.listing,
          sealed: {
            phase: "bidding",
            until,
            reveal_until: until + 3_600_000,
            reserve: 2_000,
            currency: "USD",
            bids: 0,
            yours: "none",
            sold_to: null,
          },
        }),
      ]);
      expect((await ok<{ listings: unknown[] }>(ben, "trestle_market_search", { sealed: false })).listings).toEqual([]);

      const journal = seatJournal(homes.ben, m.id, seatOf("ben"), Date.now);
      const high = await ben.call("trestle_market_bid", { listing: updated.seq, amount: 50_001 });
      expect(high.isError).toBe(true);
      expect((high.structuredContent as { error: { code: string } }).error.code).toBe("E_MANDATE");
      expect(journal.ofType("market_bid")).toEqual([]);

      const bid = await ok<{ commitment: string; until: number }>(ben, "trestle_market_bid", {
        listing: updated.listing.slice(0, 12),
        amount: 3_000,
      });
      expect(bid).toMatchObject({ kind: "bid", until, commitment: journal.ofType("market_bid")[0]!.commitment });
      expect(
        (
          await ok<{ listings: { sealed: { bids: number; yours: string } }[] }>(ben, "trestle_market_search", {
            sealed: true,
          })
        ).listings[0]!.sealed,
      ).toMatchObject({ bids: 1, yours: "committed" });
      const changed = await ana.call("trestle_market_update", {
        listing: updated.seq,
        sealed_bids: { bid_minutes: 5, reveal_minutes: 60 },
      });
      expect((changed.structuredContent as { error: { code: string; details?: string } }).error).toMatchObject({
        code: "E_NOT_ALLOWED",
      });

      await new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now() + 100)));
      const revealed = await ok<{ settled: Record<string, unknown> }>(ben, "trestle_market_reveal", {
        listing: updated.seq,
      });
      expect(revealed.settled).toMatchObject({
        outcome: "sold",
        winner: "ben",
        price: 2_000,
        currency: "USD",
        match: expect.any(Number),
      });
    } finally {
      await Promise.all([ana.close(), ben.close()]);
    }
  });
});
