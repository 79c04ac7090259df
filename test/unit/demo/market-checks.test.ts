/**
 * The market scenario's checks (src/demo/market-checks.ts) fail loudly on a match missing, a deal
 * at another price, unsigned or unrecorded, a listing whose quantity was not closed, a no-deal room
 * with a deal, a sealed listing sold to another bidder or at another price, a refusal that did not
 * happen, a buyer's deals past its allowance, a `rules` agent
 * given its owner's figure, a private figure in any ledger, or a verify that is not CLEAN.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { agentTurn, mandateLines, type AgentTurn, type Mandate } from "../../../src/owner/index.js";
import type { ProjectedEntry } from "../../../src/protocol/index.js";
import { MANDATES, MEMBERS, OFFERS, ROOMS, SALE_ROOM, SEALED, WANTS } from "../../../src/demo/market-cast.js";
import { marketChecksOf } from "../../../src/demo/market-checks.js";
import type { MarketOutcome } from "../../../src/demo/market.js";
import type { PlayedRoom } from "../../../src/demo/market-room.js";
import { unitProjection } from "../../support/agent-turn.js";
import { strollerExport } from "../../support/room-fixture.js";

/** A turn whose mandate sentences are told of `money` (under `agentView`), over `tail`. */
function turnTold(money: Mandate["money"], agentView?: "rules", tail: ProjectedEntry[] = []): AgentTurn {
  const m: Mandate = {
    version: 1,
    table: "t-unit",
    seat: "bot-tao",
    owner: "tao",
    money,
    never_disclose: ["x"],
    require_confirm: [],
    paused: false,
    loosened: false,
    signed_at: 1,
    ...(agentView ? { agent_view: agentView } : {}),
  };
  return agentTurn("bot-tao", "open", unitProjection("open", tail), {
    mandate: mandateLines({
      ok: true,
      mandate: m,
      file: { mandate: m, owner_key: "A".repeat(43), sig: "A".repeat(86) },
    }),
  });
}

const anaMoney = { currency: "TWD", cap: 500000, floor: MANDATES.ana.figure.amount } as const;
const benMoney = { currency: "TWD", cap: MANDATES.ben.figure.amount } as const;
const clean = { code: 0, stdout: "CLEAN  table x, 12 entries\n" };

/** The member who listed `title`. */
const ownerOf = (title: string) => [...OFFERS, ...WANTS].find((l) => l.title === title)!.owner;

/** A guard's refusal of `owner`'s accept in a room, for `reason`. */
const refusal = (owner: "ana" | "ben", reason: string) => ({
  owner,
  table: "mr-x",
  kind: "accept",
  reason,
  message: `refused (${reason}); it was not committed`,
});

let text = "";
beforeAll(async () => {
  text = await strollerExport();
});

/** The outcome of a scenario that went as scripted (every ledger the same real, clean export). */
function good(): MarketOutcome {
  const traded = new Set(ROOMS.filter((r) => r.ends !== null).flatMap((r) => [r.offer, r.want]));
  const rooms: PlayedRoom[] = ROOMS.map((cast, i) => ({
    room: `mr-${i}`,
    match: 20 + i,
    offer: cast.offer,
    want: cast.want,
    opener: ownerOf(cast.want),
    joiner: ownerOf(cast.offer),
    seller: ownerOf(cast.offer),
    buyer: ownerOf(cast.want),
    outcome: cast.ends === null ? "no_deal" : "deal",
    price: cast.ends,
    dealStatus: cast.ends === null ? null : "done",
    recorded: cast.ends === null ? null : 30 + i,
    refusals: i === 0 ? [refusal("ana", "floor")] : i === 3 ? [refusal("ben", "allowance")] : [],
    turns:
      i === 0
        ? { seller: [turnTold(anaMoney, "rules"), turnTold(anaMoney, "rules")], buyer: [turnTold(benMoney)] }
        : { seller: [], buyer: [] },
    exportText: text,
  }));
  const sale: PlayedRoom = {
    ...rooms[2]!,
    room: "mr-sale",
    match: 40,
    offer: SALE_ROOM.offer,
    want: SALE_ROOM.want,
    opener: SEALED.winner,
    joiner: ownerOf(SEALED.title),
    seller: ownerOf(SEALED.title),
    buyer: SEALED.winner,
    price: SEALED.price,
    recorded: 41,
    refusals: [],
  };
  rooms.push(sale);
  return {
    market: "m-swap",
    matches: ROOMS.map((r, i) => ({ seq: 20 + i, offer: r.offer, want: r.want })),
    listings: [...OFFERS, ...WANTS].map((l) => {
      const closed = traded.has(l.title) || l.title === SEALED.title ? 1 : 0;
      const quantity = l.quantity ?? 1;
      return {
        owner: l.owner,
        side: l.side,
        title: l.title,
        quantity,
        closed,
        status: closed === quantity ? ("filled" as const) : ("open" as const),
      };
    }),
    rooms,
    sealed: { outcome: "sold", winner: SEALED.winner, price: SEALED.price, match: 40 },
    refusals: [
      {
        owner: "chen",
        table: "m-swap",
        kind: "listing",
        reason: "disclose",
        message: "the message contains never_disclose entry #1 at $.text; it was not sent",
      },
    ],
    exports: ["m-swap", ...rooms.map((r) => r.room)].map((table) => ({
      table,
      path: `/out/${table}.jsonl`,
      text,
      verify: clean,
    })),
    figures: MEMBERS.flatMap((name) => [
      MANDATES[name].figure,
      ...(MANDATES[name].allowance ? [MANDATES[name].allowance!] : []),
    ]),
    rulesView: "ana",
    groups: {
      groups: [
        {
          platform: "telegram",
          lang: "en",
          messages: [
            "This group is a market's front door\nMarket m-swap",
            'News from market m-swap\n#5 New offer: "Bugaboo stroller" (baby-gear), ×1, from 3,000.00 TWD, by ana\n#31 Deal done: "Bugaboo stroller" (baby-gear), ×1.',
          ],
        },
        {
          platform: "line",
          lang: "ja",
          messages: [
            "このグループはマーケットの入口になりました",
            'マーケット m-swap のお知らせ\n#5 新しい出品："Bugaboo stroller"（baby-gear）、×1、3,000.00 TWD から、出品者 ana',
          ],
        },
      ],
      replies: [
        'Listed #60 in market m-swap: offer "Baby carrier", from 1,200.00 TWD. UNVERIFIED: posted from Telegram, relay-attested, not your signature',
      ],
    },
  };
}

const failing = (outcome: MarketOutcome) =>
  marketChecksOf(outcome)
    .filter((c) => !c.ok)
    .map((c) => c.name);

/** `o` with room `i` changed by `change`. */
const withRoom = (o: MarketOutcome, i: number, change: Partial<PlayedRoom>): MarketOutcome => ({
  ...o,
  rooms: o.rooms.map((r, j) => (j === i ? { ...r, ...change } : r)),
});

describe("the market scenario's checks", () => {
  it("all hold for the matches, deals, refusals, turns and CLEAN exports the scenario calls for", () => {
    expect(failing(good())).toEqual([]);
  });

  describe("when something is wrong", () => {
    it("fails when a match is missing or another was made", () => {
      const o = good();
      expect(failing({ ...o, matches: o.matches.slice(1) })).toEqual(["matched"]);
      expect(
        failing({ ...o, matches: [...o.matches, { seq: 40, offer: "High chair, wooden", want: "High chair" }] }),
      ).toEqual(["matched"]);
    });

    it.each([
      ["a deal at another price", 2, { price: 86000 }, ["deals_signed"]],
      ["a deal one owner has not signed", 2, { dealStatus: "pending" }, ["deals_signed"]],
      ["a room meant for a deal ended without one", 2, { outcome: "no_deal" }, ["deals_signed"]],
      ["a deal the market did not record", 2, { recorded: null }, ["deals_recorded"]],
      ["the no-deal room closed with a deal", 1, { outcome: "deal" }, ["no_deal"]],
      ["the guard let the accept under the floor pass", 0, { refusals: [] }, ["guard_refused"]],
      ["the allowance refused nothing in the buyer's second room", 3, { refusals: [] }, ["allowance"]],
    ] as const)("fails on %s", (_, i, change, names) => {
      expect(failing(withRoom(good(), i, change))).toEqual(names);
    });

    it.each([
      ["a room's id", "#32 mr-3f2a9c0e1b2d was opened"],
      ["a deal's price", '#31 Deal done: "Bugaboo stroller" (baby-gear), ×1, 2,900.00 TWD.'],
      ["an approval", "Your approval is needed"],
    ])("fails when a group was sent %s", (_, line) => {
      const o = good();
      const told = {
        ...o.groups!,
        groups: o.groups!.groups.map((g, i) =>
          i === 0 ? { ...g, messages: [...g.messages, `News from market m-swap\n${line}`] } : g,
        ),
      };
      expect(failing({ ...o, groups: told })).toEqual(["groups"]);
    });

    it("fails when a member's post from a group was answered without UNVERIFIED", () => {
      const o = good();
      expect(failing({ ...o, groups: { ...o.groups!, replies: ["Listed #60 in market m-swap"] } })).toEqual(["groups"]);
    });

    it("fails when a traded listing's quantity was not closed", () => {
      const o = good();
      expect(
        failing({
          ...o,
          listings: o.listings.map((l) =>
            l.title === "Bugaboo stroller" ? { ...l, closed: 0, status: "open" as const } : l,
          ),
        }),
      ).toEqual(["deals_recorded"]);
    });

    it("fails when the sealed bids sold to another bidder or at another price, or the sale's deal was not recorded", () => {
      const o = good();
      expect(failing({ ...o, sealed: { ...o.sealed, winner: "ben" } })).toEqual(["sealed_bids"]);
      expect(failing({ ...o, sealed: { ...o.sealed, price: 110000 } })).toEqual(["sealed_bids"]);
      expect(failing(withRoom(o, 4, { recorded: null }))).toEqual(["sealed_bids"]);
    });

    it("fails when the buyer's deals came to more than its allowance", () => {
      const o = good();
      expect(
        failing({ ...o, figures: o.figures.map((f) => (f.what === "allowance" ? { ...f, amount: 400000 } : f)) }),
      ).toEqual(["allowance"]);
    });

    it("fails when the listing's draft naming a floor was not refused", () => {
      expect(failing({ ...good(), refusals: [] })).toEqual(["guard_refused"]);
    });

    it("fails when the rules agent was told its owner's floor, in its mandate's sentences or in any word it was given", () => {
      const o = good();
      const told = withRoom(o, 0, { turns: { ...o.rooms[0]!.turns, seller: [turnTold(anaMoney)] } });
      expect(failing(told)).toEqual(["rules_view"]);
      const heard = turnTold(anaMoney, "rules", [
        { seq: 4, kind: "say", seat: "ben-bot", body: "I hear your floor is three thousand one hundred" },
      ]);
      expect(failing(withRoom(o, 0, { turns: { ...o.rooms[0]!.turns, seller: [heard] } }))).toEqual(["rules_view"]);
    });

    it("fails when the figures agent was not told its figure (the check could not tell the views apart)", () => {
      const o = good();
      expect(
        failing(withRoom(o, 0, { turns: { ...o.rooms[0]!.turns, buyer: [turnTold(anaMoney, "rules")] } })),
      ).toEqual(["rules_view"]);
    });

    it("fails when a private figure is in a ledger, in words or as an amount", async () => {
      const o = good();
      const inWords = await strollerExport("Deal, under your 3,100 floor.");
      expect(failing({ ...o, exports: o.exports.map((x, i) => (i === 1 ? { ...x, text: inWords } : x)) })).toEqual([
        "figures_absent",
      ]);
      const asAmount = await strollerExport(undefined, MANDATES.chen.figure.amount);
      expect(failing({ ...o, exports: o.exports.map((x, i) => (i === 0 ? { ...x, text: asAmount } : x)) })).toEqual([
        "figures_absent",
      ]);
    });

    it("fails when an export is not CLEAN, or one is missing", () => {
      const o = good();
      expect(
        failing({
          ...o,
          exports: o.exports.map((x, i) =>
            i === 3 ? { ...x, verify: { code: 4, stdout: "REFUTED  table x …\n" } } : x,
          ),
        }),
      ).toEqual(["verify_clean"]);
      expect(failing({ ...o, exports: o.exports.slice(0, 5) })).toEqual(["verify_clean"]);
    });
  });
});
