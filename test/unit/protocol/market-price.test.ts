/**
 * A deal's shown price (docs/SPEC.md §5.15, decision 0529): a recorded deal carries its terms only
 * with both owners' consents (purpose `price`, over the market, the match and the deal's hash);
 * the terms must hash to the recorded deal. A verifier refutes a forged price and a consent by
 * another key, for another deal or for another market.
 */
import { describe, expect, it } from "vitest";
import {
  dealHash,
  priceStatement,
  signStatement,
  verifyExport,
  type DealTerms,
  type Entry,
} from "../../../src/protocol/index.js";
import { dealStatementsOf } from "../../../src/protocol/signing/deal.js";
import { groupNewsOf } from "../../../src/protocol/reading/group-events.js";
import { marketEntryText } from "../../../src/text/market.js";
import { MarketLedger } from "../../support/market-fixture.js";
import { copy, exportOf, headOver, refusal, rechain } from "./fixtures.js";

type Member = "ana" | "ben" | "chen";

/** ana's stroller matched to ben's want, and the terms of a deal at 3,200.00 TWD in the match's room. */
async function matched() {
  const m = await MarketLedger.open();
  await m.list("ana", {
    side: "offer",
    title: "Bugaboo stroller",
    category: "baby-gear",
    quantity: 1,
    price: { currency: "TWD", min: 300000 },
  });
  const [match] = MarketLedger.matches(
    await m.list("ben", { side: "want", title: "stroller", category: "baby-gear", quantity: 1 }),
  );
  const seq = match!.seq;
  const state = m.state.market!.matches[String(seq)]!;
  const party = (who: Member, seat: string) => ({ owner: who, key: m.k.owners[who].publicKeyText, seat });
  const terms: DealTerms = {
    scope: "deal",
    table: state.room,
    offer: "ab".repeat(32),
    offer_seq: 3,
    accept_seq: 4,
    offered_by: party("ana", "ana-room"),
    accepted_by: party("ben", "ben-room"),
    terms: { amount: 320000, currency: "TWD" },
  };
  return { m, seq, terms, deal: dealHash(terms) };
}

/** `who`'s consent to show `deal` of match `match` in `market`. */
function consent(m: MarketLedger, who: Member, market: string, match: number, deal: string): Promise<string> {
  return signStatement(m.k.owners[who], "price", priceStatement(market, match, deal));
}

/** The deal record with the terms shown under `consents` (ana's and ben's by default). */
async function shownDraft(m: MarketLedger, seq: number, terms: DealTerms, consents?: [string, string]) {
  const deal = dealHash(terms);
  const draft = await m.dealDraft(seq, deal);
  const signed = consents ?? [
    await consent(m, "ana", m.state.table, seq, deal),
    await consent(m, "ben", m.state.table, seq, deal),
  ];
  return { ...draft, data: { ...draft.data, price: { terms, consents: signed } } };
}

async function verdictOf(m: MarketLedger, entries: readonly Entry[]) {
  const chained = rechain(entries);
  return verifyExport(await exportOf(m.k.relay, chained, [await headOver(m.k.relay, chained)], m.state.table), {
    relayKey: m.k.relay.publicKeyText,
  });
}

describe("a recorded deal's shown price", () => {
  it("is folded onto the match with both consents and verifies CLEAN", async () => {
    const { m, seq, terms } = await matched();
    m.l.append(await shownDraft(m, seq, terms));
    expect(m.state.market!.matches[String(seq)]!.price).toEqual({ amount: 320000, currency: "TWD" });
    expect((await verifyExport(await m.exportText(), { relayKey: m.k.relay.publicKeyText })).verdict).toBe("CLEAN");
  });

  it("is told to the market's groups as the one amount; a deal without it tells them none", async () => {
    const { m, seq, terms } = await matched();
    m.state.market!.groups["telegram:-100"] = { platform: "telegram", group: "-100", lang: "en", seq: 1 };
    const [entry] = m.l.append(await shownDraft(m, seq, terms));
    expect(groupNewsOf(m.state, entry!, { table: m.state.table, topic: "swap" })).toMatchObject({
      news: "deal",
      price: { currency: "TWD", min: 320000, max: 320000 },
    });
    const { m: other, seq: otherSeq, deal } = await matched();
    other.state.market!.groups["telegram:-100"] = { platform: "telegram", group: "-100", lang: "en", seq: 1 };
    const [plain] = other.l.append(await other.dealDraft(otherSeq, deal));
    expect(groupNewsOf(other.state, plain!, { table: other.state.table, topic: "swap" })).not.toHaveProperty("price");
  });

  it("is absent from a deal recorded without it, and only a shown one is printed with its amount", async () => {
    const { m, seq, deal, terms } = await matched();
    const [plain] = m.l.append(await m.dealDraft(seq, deal));
    expect(m.state.market!.matches[String(seq)]!.price).toBeUndefined();
    expect(marketEntryText(plain!)).not.toContain("TWD");
    const { m: other, seq: otherSeq } = await matched();
    const [shown] = other.l.append(await shownDraft(other, otherSeq, terms));
    expect(marketEntryText(shown!)).toContain("at 3,200.00 TWD (320000 minor units) (shown: both owners allowed it)");
  });

  it("refuses terms that do not hash to the deal (E_TERMS_MISMATCH) or are another room's (E_WRONG_TABLE), the ledger unchanged", async () => {
    const { m, seq, terms } = await matched();
    const size = m.l.entries.length;
    const draft = await shownDraft(m, seq, terms);
    const forged = {
      ...draft,
      data: {
        ...draft.data,
        price: { ...draft.data.price, terms: { ...terms, terms: { amount: 100, currency: "TWD" as const } } },
      },
    };
    expect(await refusal(() => m.l.append(forged))).toMatchObject({ code: "E_TERMS_MISMATCH" });
    const elsewhere = {
      ...draft,
      data: { ...draft.data, price: { ...draft.data.price, terms: { ...terms, table: "mr-elsewhere" } } },
    };
    expect(await refusal(() => m.l.append(elsewhere))).toMatchObject({ code: "E_WRONG_TABLE" });
    expect(m.l.entries.length).toBe(size);
  });

  describe("a verifier", () => {
    it("refutes a forged price in an export", async () => {
      const { m, seq, terms } = await matched();
      m.l.append(await shownDraft(m, seq, terms));
      const entries = copy(m.l.entries);
      const last = entries[entries.length - 1]!;
      if (last.kind !== "system" || last.subkind !== "deal_recorded" || !last.data.price)
        throw new Error("no shown deal");
      last.data.price.terms.terms.amount = 120000;
      const report = await verdictOf(m, entries);
      expect(report.verdict).toBe("REFUTED");
      expect(report.refuted?.reason).toMatch(/do not hash to the recorded deal/);
    });

    it("refutes a consent by someone not party to the deal, for another deal, or for another market", async () => {
      for (const bad of [
        async (m: MarketLedger, seq: number, deal: string) => consent(m, "chen", m.state.table, seq, deal),
        async (m: MarketLedger, seq: number) => consent(m, "ben", m.state.table, seq, "ef".repeat(32)),
        async (m: MarketLedger, seq: number, deal: string) => consent(m, "ben", "m-another-market", seq, deal),
      ]) {
        const { m, seq, terms, deal } = await matched();
        m.l.append(
          await shownDraft(m, seq, terms, [await consent(m, "ana", m.state.table, seq, deal), await bad(m, seq, deal)]),
        );
        const report = await verdictOf(m, copy(m.l.entries));
        expect(report.verdict).toBe("REFUTED");
        expect(report.refuted?.reason).toMatch(/price/);
      }
    });
  });
});

describe("the consent statement", () => {
  it("binds the market, the match and the deal hash; a deal_sign carrying one records it beside the deal signature", () => {
    expect(priceStatement("m-swap", 7, "cd".repeat(32))).toEqual({
      scope: "show_price",
      market: "m-swap",
      match: 7,
      deal: "cd".repeat(32),
    });
    const entry = {
      table: "mr-1",
      seat: "ana-room",
      kind: "deal_sign",
      offer: "ab".repeat(32),
      deal: "cd".repeat(32),
      owner_key: "k",
      owner_sig: "s1",
      show_price: { market: "m-swap", match: 7, sig: "s2" },
    };
    const statements = dealStatementsOf(entry as never);
    expect(statements.map((s) => s.purpose)).toEqual(["deal", "price"]);
    expect(statements[1]).toMatchObject({
      key: "k",
      sig: "s2",
      statement: { scope: "show_price", market: "m-swap", match: 7, deal: "cd".repeat(32) },
    });
  });
});
