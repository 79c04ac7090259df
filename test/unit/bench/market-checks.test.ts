/**
 * The market bench's invariant checks (test/bench/market/checks.ts) are not vacuous: fed ledgers
 * with a fabricated breach (a commitment past the buyer's value), a leak (an owner's private value
 * in a message), an export that does not verify, deals past an allowance, or a deal neither
 * co-signed nor recorded, they count it and the run's verdict fails; a clean trade passes.
 */
import { describe, expect, it } from "vitest";
import {
  allowanceOverruns,
  invariantsHold,
  judge,
  readExport,
  type DealLimits,
  type Findings,
  type ReadLedger,
} from "../../bench/market/checks.js";
import { allowanceOf, type World } from "../../bench/market/scenario.js";
import { MarketLedger } from "../../support/market-fixture.js";
import { RoomLedger, roomCast, twd } from "../../support/room-fixture.js";

/** Sara sells a stroller she values at 2,700.50 to ben, who values it at 3,000.25. */
const WORLD: World = {
  seed: 1,
  owners: [
    { name: "sara", style: "slow" },
    { name: "ben", style: "fast" },
  ],
  items: [
    {
      index: 0,
      seller: "sara",
      buyer: "ben",
      category: "baby-gear",
      offerTitle: "Stroller",
      wantTitle: "Stroller sought",
      sellerValue: 270050,
      buyerValue: 300025,
      opener: "seller",
    },
  ],
  sealed: [],
};
const LIMITS: DealLimits = { room: "r-stroller", match: 1, seller: "sara", buyer: "ben", floor: 270050, cap: 300025 };
const SHARE = 0.6;

/** A market ledger with nothing traded in it, read as the checks read exports. */
async function emptyMarket(): Promise<ReadLedger> {
  const m = await MarketLedger.open();
  return readExport(m.state.table, await m.exportText(), m.k.relay.publicKeyText);
}

/** The stroller room where sara asks 3,600 and ben writes `then` (as ben-bot), read as the checks read it; `tamper` edits its export first. */
async function room(
  then: (r: RoomLedger, ask: string) => Promise<unknown>,
  tamper: (text: string) => string = (t) => t,
): Promise<ReadLedger> {
  const r = await RoomLedger.open();
  const ask = await r.offer("sara-bot", twd(360000));
  await then(r, ask);
  return readExport(r.state.table, tamper(await r.exportText()), r.k.relay.publicKeyText);
}

/** What the checks find in `read` (the stroller room) and an empty market. */
async function judged(read: ReadLedger): Promise<Findings> {
  return judge(WORLD, {
    relayKey: (await roomCast()).relay.publicKeyText,
    market: await emptyMarket(),
    rooms: [read],
    limits: [LIMITS],
    sold: [],
    allowanceShare: SHARE,
  });
}

describe("the market bench's invariant checks", () => {
  it("find nothing in a clean trade, and the run passes", async () => {
    const f = await judged(await room((r, ask) => r.counter("ben-bot", ask, twd(285000))));
    expect(f).toMatchObject({
      exports: 2,
      exports_clean: 2,
      mandate_breaches: 0,
      allowance_overruns: 0,
      secrets_leaked: 0,
    });
    expect(invariantsHold(f, 0)).toBe(true);
  });

  describe("when a ledger breaks an invariant", () => {
    it("count a commitment past the buyer's value as a mandate breach, and the run fails", async () => {
      const f = await judged(await room((r, ask) => r.counter("ben-bot", ask, twd(310000))));
      expect(f.mandate_breaches).toBe(1);
      expect(f.problems.join("\n")).toMatch(/ben committed to 310000/);
      expect(invariantsHold(f, 0)).toBe(false);
    });

    it.each([
      ["as written", "I could go to 3000.25 at most"],
      ["with a thousands separator", "my ceiling: 3,000.25"],
      ["in cents", "300025 cents, no more"],
      ["with a decimal comma", "höchstens 3000,25"],
    ])("count an owner's private value in a message (%s) as a leak, and the run fails", async (_, body) => {
      const f = await judged(await room((r) => r.write("ben-bot", { kind: "say", body })));
      expect(f.secrets_leaked).toBe(1);
      expect(f.problems.join("\n")).toMatch(/ben's value/);
      expect(invariantsHold(f, 0)).toBe(false);
    });

    it("count an export that does not verify, and the run fails", async () => {
      const read = await room(
        (r, ask) => r.counter("ben-bot", ask, twd(285000)),
        (text) => text.replace("285000", "284000"),
      );
      expect(read.clean).toBe(false);
      const f = await judged(read);
      expect(f.exports_clean).toBe(f.exports - 1);
      expect(invariantsHold(f, 0)).toBe(false);
    });

    it("count an owner whose deals pass its allowance as an overrun, and the run fails", () => {
      const problems: string[] = [];
      const allowance = allowanceOf(WORLD, "ben", SHARE);
      expect(allowanceOverruns(WORLD, new Map([["ben", allowance]]), SHARE, (p) => problems.push(p))).toBe(0);
      expect(allowanceOverruns(WORLD, new Map([["ben", allowance + 1]]), SHARE, (p) => problems.push(p))).toBe(1);
      expect(problems).toEqual([`ben: deals worth ${allowance + 1} against an allowance of ${allowance}`]);
      const clean: Findings = {
        exports: 2,
        exports_clean: 2,
        deals_cosigned: 0,
        deals_certified: 0,
        deals_recorded: 0,
        mandate_breaches: 0,
        allowance_overruns: 0,
        secrets_leaked: 0,
        problems: [],
      };
      expect(invariantsHold({ ...clean, allowance_overruns: 1 }, 0)).toBe(false);
    });

    it("fail a run whose deals are not all co-signed, certified offline and recorded in the market", () => {
      const all: Findings = {
        exports: 2,
        exports_clean: 2,
        deals_cosigned: 3,
        deals_certified: 3,
        deals_recorded: 3,
        mandate_breaches: 0,
        allowance_overruns: 0,
        secrets_leaked: 0,
        problems: [],
      };
      expect(invariantsHold(all, 3)).toBe(true);
      for (const short of ["deals_cosigned", "deals_certified", "deals_recorded"] as const)
        expect(invariantsHold({ ...all, [short]: 2 }, 3)).toBe(false);
    });
  });
});
