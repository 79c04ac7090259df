/**
 * The market demo's scripted agent (src/demo/haggler.ts) answers from the turn alone: a seller
 * opens and comes down by its step, a buyer goes up by its; each accepts a price within its next
 * step and the limits its mandate's sentences state; under agent_view rules it knows no limit and,
 * refused, splits the difference with its last price; one that cannot move holds, then closes.
 */
import { describe, expect, it } from "vitest";
import { agentTurn, mandateLines, type AgentTurn, type Mandate, type TurnRefusal } from "../../../src/owner/index.js";
import type { ProjectedEntry } from "../../../src/protocol/index.js";
import { Haggler, toldLimits, type HaggleScript } from "../../../src/demo/haggler.js";
import { unitProjection } from "../../support/agent-turn.js";

const SELL: HaggleScript = { side: "sell", currency: "TWD", open: 360000, step: 30000, pitch: "stroller" };
const BUY: HaggleScript = { side: "buy", currency: "TWD", open: 280000, step: 20000 };

/** The sentences a seat's agent is told of a mandate with `money` (and `agent_view`). */
function told(money: Mandate["money"], agentView?: "rules"): string[] {
  const m: Mandate = {
    version: 1,
    table: "t-unit",
    seat: "bot-tao",
    owner: "tao",
    ...(money ? { money } : {}),
    never_disclose: ["3100"],
    require_confirm: [],
    paused: false,
    loosened: false,
    signed_at: 1,
    ...(agentView ? { agent_view: agentView } : {}),
  };
  return mandateLines({ ok: true, mandate: m, file: { mandate: m, owner_key: "A".repeat(43), sig: "A".repeat(86) } });
}

/** A priced entry at `seq` by `seat` (bot-tao is the agent's own seat). */
const priced = (seq: number, seat: string, amount: number, kind = seq === 1 ? "offer" : "counter"): ProjectedEntry => ({
  seq,
  kind,
  seat,
  data: { terms: { amount, currency: "TWD" } },
});

/** The turn of bot-tao over `tail`, told `mandate`, with a refusal. */
function turn(tail: ProjectedEntry[], mandate: string[], refused?: TurnRefusal): AgentTurn {
  return agentTurn("bot-tao", "open", unitProjection("open", tail), { mandate, ...(refused ? { refused } : {}) });
}

const sellerFigures = told({ currency: "TWD", cap: 500000, floor: 310000 });
const sellerRules = told({ currency: "TWD", cap: 500000, floor: 310000 }, "rules");
const buyerFigures = told({ currency: "TWD", cap: 320000 });

describe("the demo's scripted agent", () => {
  it("reads its limits from the mandate's sentences under figures, and none under rules", () => {
    expect(toldLimits(sellerFigures, "TWD")).toEqual({ cap: 500000, floor: 310000 });
    expect(toldLimits(buyerFigures, "TWD")).toEqual({ cap: 320000 });
    expect(toldLimits(sellerRules, "TWD")).toEqual({});
  });

  it("opens as the seller with its pitch, and waits as the buyer", () => {
    expect(new Haggler(SELL).reply(turn([], sellerFigures))).toEqual({
      data: {
        kind: "offer",
        terms: { amount: 360000, currency: "TWD", text: "stroller" },
        body: "Asking 3,600.00 TWD.",
      },
    });
    expect(new Haggler(BUY).reply(turn([], buyerFigures))).toEqual({ text: "" });
  });

  it("counters by its step, and accepts a price within its next step and its limits", () => {
    expect(new Haggler(BUY).reply(turn([priced(1, "ana-bot", 360000)], buyerFigures))).toMatchObject({
      data: { kind: "counter", offer: 1, terms: { amount: 280000 } },
    });
    const tail = [priced(1, "ana-bot", 360000), priced(2, "bot-tao", 280000), priced(3, "ana-bot", 330000)];
    expect(new Haggler(BUY).reply(turn(tail, buyerFigures))).toMatchObject({
      data: { kind: "counter", offer: 3, terms: { amount: 300000 } },
    });
    expect(
      new Haggler(BUY).reply(turn([...tail, priced(4, "bot-tao", 300000), priced(5, "ana-bot", 315000)], buyerFigures)),
    ).toEqual({ data: { kind: "accept", offer: 5, body: "Deal at 3,150.00 TWD." } });
  });

  describe("when its owner's guard refuses what it tried", () => {
    it("under rules, tries the buyer's price, and once refused splits the difference with its last price", () => {
      const agent = new Haggler(SELL);
      const tail = [
        priced(1, "bot-tao", 360000),
        priced(2, "ben-bot", 280000),
        priced(3, "bot-tao", 330000),
        priced(4, "ben-bot", 300000),
      ];
      expect(agent.reply(turn(tail, sellerRules))).toMatchObject({ data: { kind: "accept", offer: 4 } });
      const refused = {
        code: "E_MANDATE",
        reason: "floor",
        message: "300000 TWD (minor units) is below the mandate's floor; it was not committed",
      };
      expect(agent.reply(turn(tail, sellerRules, refused))).toEqual({
        data: {
          kind: "counter",
          offer: 4,
          terms: { amount: 315000, currency: "TWD" },
          body: "3,150.00 TWD is the best I can do.",
        },
      });
    });

    it("as a buyer past its owner's allowance (what other rooms spent is not in its turn), splits the difference downward", () => {
      const agent = new Haggler({ ...BUY, open: 100000, step: 10000 });
      const tail = [
        priced(1, "dara-bot", 140000),
        priced(2, "bot-tao", 100000),
        priced(3, "dara-bot", 130000),
        priced(4, "bot-tao", 110000),
        priced(5, "dara-bot", 120000),
      ];
      expect(agent.reply(turn(tail, buyerFigures))).toMatchObject({ data: { kind: "accept", offer: 5 } });
      const refused = {
        code: "E_MANDATE",
        reason: "allowance",
        message: "120000 TWD (minor units) would bring what the owner spent … past their allowance",
      };
      expect(agent.reply(turn(tail, buyerFigures, refused))).toMatchObject({
        data: { kind: "counter", offer: 5, terms: { amount: 115000 } },
      });
    });

    it("under figures, never tries a price past its floor", () => {
      const tail = [
        priced(1, "bot-tao", 360000),
        priced(2, "ben-bot", 280000),
        priced(3, "bot-tao", 330000),
        priced(4, "ben-bot", 300000),
      ];
      expect(new Haggler(SELL).reply(turn(tail, sellerFigures))).toEqual({
        text: "3,300.00 TWD is as far as I can go.",
      });
    });
  });

  describe("when it cannot move", () => {
    it("holds first, and closes without a deal once the other side held too", () => {
      const capped = told({ currency: "TWD", cap: 290000 });
      const tail = [priced(1, "chen-bot", 360000), priced(2, "bot-tao", 280000), priced(3, "chen-bot", 330000)];
      expect(new Haggler(BUY).reply(turn(tail, capped))).toEqual({ text: "2,800.00 TWD is as far as I can go." });
      const held: ProjectedEntry = {
        seq: 4,
        kind: "say",
        seat: "chen-bot",
        body: "3,300.00 TWD is as far as I can go.",
      };
      expect(new Haggler(BUY).reply(turn([...tail, held], capped))).toMatchObject({
        data: { kind: "close", outcome: "no_deal" },
      });
    });
  });
});
