/**
 * The allowance step of a guarded seat's write (docs/MARKETS.md "An owner's allowance"): under a
 * mandate with an `allowance`, a write that commits the owner to a deal in the room of a market's
 * match (an offer, counter, accept, sealed bid, deal_sign, or a close with a deal), or a sealed
 * bid's commit on a listing at the market itself (decision 0499), is reserved in the owner's
 * allowance store for that market before it is signed. The buyer's (the match's `wanted_by`, or
 * the bidder) counts its amount against the total; either side's counts as one open commitment. A
 * write on a deal the store already counts (a deal_sign after the accept; in the room of a sale the
 * owner won, the won bid) reserves nothing more. The store's commitments judged at this table are
 * first brought up to date from the verified transcript the guard just read (allowance-ledger.ts);
 * a write that would pass the total or the number open is judged again once the other rooms were
 * brought up to date from their own ledgers, and refused if it still would. The reservation is
 * released when the write does not leave (held, refused by the relay), and keeps its entry's seq
 * when it does; an unknown outcome leaves it reserved.
 */
import type { Clock } from "../client/index.js";
import {
  own,
  TrestleError,
  type Currency,
  type MatchParty,
  type Submission,
  type TableState,
  type Terms,
} from "../protocol/index.js";
import { counted } from "../text/count.js";
import { moneyText } from "../text/terms.js";
import { settleRoom, withSaleWon } from "./allowance-ledger.js";
import {
  ALLOWANCE_COMMITMENTS,
  allowanceTotals,
  AllowanceStore,
  type AllowanceCommitment,
  type AllowanceSide,
} from "./allowance-store.js";
import { thisProcess } from "./process-identity.js";
import { dealIn } from "./deals.js";
import type { Refuse } from "./guard-refusal.js";
import type { Journal } from "./journal.js";
import { moneyBound } from "./mandate-limits.js";
import { isMarketBidCommit, marketBidTerms } from "./market-bids.js";
import type { Mandate, MandateAllowance } from "./records.js";
import { roomCommitment } from "../protocol/policy/kinds/registry.js";
import { seatOwnerKey, type Transcript } from "./transcript.js";

/** Where a write is judged: the trestle home, the seat, its table and journal, the verified transcript and the clock, and how the store's other rooms are brought up to date before a refusal (none: they are not). */
export interface AllowanceContext {
  home: string;
  seat: string;
  table: string;
  journal: Journal;
  transcript: Transcript;
  clock: Clock;
  reconcile?(store: AllowanceStore): Promise<unknown>;
}

/** A write's reservation, made before it was signed: `sent` records the entry it became, `dropped` releases it (it was held or refused, so nothing left). */
export interface Reservation {
  sent(seq: number): Promise<void>;
  dropped(): Promise<void>;
}

/** What `s` spends: the leaf of the offer or auction whose deal it is about (its kind's module says; null for an offer's or counter's own) and the terms it binds the owner to (the deal's, when it names a deal by no offer it answers); null when it is about no deal. */
function spendOf(
  journal: Journal,
  state: TableState,
  s: Submission,
): { deal: string | null; terms: Terms | null } | null {
  const deal = roomCommitment(s).deal;
  if (deal === undefined) return null;
  return { deal, terms: moneyBound(journal, state, s) ?? (deal === null ? null : dealIn(state, deal).terms.terms) };
}

/**
 * What a write reserves, once judged where it is written: whose allowance in which market, the side
 * and terms it counts, what it is keyed by, whether the store already counts it, and how the store
 * is brought in line with what this table's verified ledger shows before it is judged.
 */
interface Spend {
  party: MatchParty;
  market: string;
  side: AllowanceSide;
  terms: Terms | null;
  deal: string | null;
  listing?: string;
  counted(commitments: readonly AllowanceCommitment[]): boolean;
  prepare(commitments: AllowanceCommitment[]): AllowanceCommitment[];
}

/** What `plain` reserves in the room of a market's match (the buyer counts its terms, either side one open commitment), or null elsewhere or when it is about no deal. */
function roomSpend(plain: Submission, state: TableState, at: AllowanceContext, refuse: Refuse): Spend | null {
  const citation = state.config.room?.match;
  if (!citation) return null;
  let spend: ReturnType<typeof spendOf>;
  try {
    spend = spendOf(at.journal, state, plain);
  } catch (error) {
    if (!(error instanceof TrestleError)) throw error;
    return refuse(
      "mandate",
      error.code,
      "allowance",
      `${error.message}: what this commits against the owner's allowance cannot be judged; nothing was committed`,
    );
  }
  if (!spend) return null;
  const ownerKey = seatOwnerKey(at.transcript, at.seat);
  const { offered_by, wanted_by } = citation.data;
  const side: AllowanceSide | null =
    ownerKey === wanted_by.key ? "buyer" : ownerKey === offered_by.key ? "seller" : null;
  if (side === null)
    return refuse(
      "mandate",
      "E_MANDATE",
      "allowance",
      `seat ${at.seat}'s owner is neither side of the match this room cites, so no allowance can count what it commits; nothing was committed`,
    );
  const { deal } = spend;
  const buyer = side === "buyer";
  return {
    party: buyer ? wanted_by : offered_by,
    market: citation.market,
    side,
    terms: buyer ? spend.terms : null,
    deal,
    // In the room of a sale the owner won, its won bid counts the one deal the room can close.
    counted: (list) =>
      list.some((c) => c.room === at.table && deal !== null && c.deal === deal) ||
      (buyer && list.some((c) => c.sale === at.table)),
    prepare: (list) => (buyer ? withSaleWon(list, at.table, citation) : list),
  };
}

/** What a sealed bid's commit at a market reserves: the bidding owner's bid, as the buyer, keyed by nothing but its own write (each bid counts, even a second one on the same listing). */
function bidSpend(plain: Submission, state: TableState, at: AllowanceContext, refuse: Refuse): Spend | null {
  if (plain.kind !== "bid" || plain.op !== "commit" || !state.market) return null;
  let terms: Terms | null;
  try {
    terms = marketBidTerms(at.journal, state, plain);
  } catch (error) {
    if (!(error instanceof TrestleError)) throw error;
    return refuse(
      "mandate",
      error.code,
      "allowance",
      `${error.message}: what this bid commits against the owner's allowance cannot be judged; nothing was committed`,
    );
  }
  const owner = own(state.seats, at.seat)?.owner;
  const key = seatOwnerKey(at.transcript, at.seat);
  if (owner === undefined || key === undefined)
    return refuse(
      "mandate",
      "E_MANDATE",
      "allowance",
      `the verified transcript does not show seat ${at.seat}'s owner, so no allowance can count this bid; nothing was committed`,
    );
  return {
    party: { owner, key },
    market: state.table,
    side: "buyer",
    terms,
    deal: null,
    listing: plain.listing,
    counted: () => false,
    prepare: (list) => list,
  };
}

/**
 * Reserves `plain` (sent as `wire`, hash `hash`) in the owner's allowance store when mandate `m` has
 * an allowance and the write commits the owner in the room of a market's match, or is a sealed bid's
 * commit at a market; calls `refuse` (which throws) when it would pass the allowance or cannot be
 * judged. Returns the reservation, or null when the write reserves nothing.
 */
export async function reserveAllowance(
  m: Mandate,
  plain: Submission,
  wire: Submission,
  hash: string,
  at: AllowanceContext,
  refuse: Refuse,
): Promise<Reservation | null> {
  const allowance = m.allowance;
  if (!allowance || (roomCommitment(plain).deal === undefined && !isMarketBidCommit(plain))) return null;
  const state = at.transcript.state;
  if (!state || at.transcript.report.verdict !== "CLEAN") {
    return refuse(
      "mandate",
      "E_MANDATE",
      "allowance",
      `the table's transcript is ${at.transcript.report.verdict}, so what this commits against the owner's allowance cannot be judged; nothing was committed`,
    );
  }
  const spend = state.market ? bidSpend(plain, state, at, refuse) : roomSpend(plain, state, at, refuse);
  if (!spend) return null;
  const terms = spend.terms;
  if (terms?.amount !== undefined && terms.currency !== allowance.currency) {
    refuse(
      "mandate",
      "E_MANDATE",
      "currency",
      `the owner's allowance is in ${allowance.currency}, not ${terms.currency}; nothing was committed`,
    );
  }
  const store = new AllowanceStore(at.home, {
    owner: spend.party.owner,
    ownerKey: spend.party.key,
    market: spend.market,
  });
  const now = at.clock();
  const record: AllowanceCommitment = {
    room: at.table,
    seat: at.seat,
    kind: plain.kind,
    nonce: wire.nonce,
    message_sha256: hash,
    side: spend.side,
    amount: terms?.amount ?? 0,
    ...(terms?.currency === undefined ? {} : { currency: terms.currency }),
    state: "open",
    ...(spend.deal === null ? {} : { deal: spend.deal }),
    ...(spend.listing === undefined ? {} : { listing: spend.listing }),
    process: thisProcess(),
    at: now,
  };
  const judged = () =>
    store.update((list) => {
      const settled = spend.prepare(
        settleRoom(list, { room: at.table, state, entries: at.transcript.entries, now, ended: () => false }),
      );
      const result: Verdict = spend.counted(settled) ? "counted" : judge(allowance, settled, record);
      return { commitments: result === "reserve" ? [...settled, record] : settled, result };
    });
  let verdict: Verdict;
  try {
    verdict = await judged();
    // What other rooms ended is only known from their ledgers: read them before refusing for what they hold.
    if (typeof verdict === "object" && (verdict.reason === "allowance" || verdict.reason === "open") && at.reconcile) {
      await at.reconcile(store);
      verdict = await judged();
    }
  } catch (error) {
    if (error instanceof TrestleError) refuse("mandate", error.code, "allowance_store", error.message, error.details);
    throw error;
  }
  const refusal = verdict === "counted" || verdict === "reserve" ? null : verdict;
  if (refusal)
    refuse(
      "mandate",
      "E_MANDATE",
      refusal.reason,
      refusalMessage(refusal, allowance, m.agent_view !== "rules", spend.market, record),
    );
  if (verdict !== "reserve") return null;
  const mine = (c: AllowanceCommitment) => c.room === record.room && c.nonce === record.nonce;
  return {
    sent: (seq) =>
      keepReserved(
        store.update((list) => ({
          commitments: list.map((c) => (mine(c) && c.seq === undefined ? { ...c, seq } : c)),
          result: null,
        })),
      ),
    dropped: () => keepReserved(store.update((list) => ({ commitments: list.filter((c) => !mine(c)), result: null }))),
  };
}

/** What the allowance says of a new commitment: reserve it, it is already counted (its deal is), or why it is refused. */
type Verdict = "reserve" | "counted" | Overrun;

/** Why a commitment would pass the allowance, with what the store counts. */
type Overrun =
  | { reason: "allowance" | "currency" | "allowance_store"; used: number; open: number; currency?: Currency }
  | { reason: "open"; used: number; open: number; most: number };

/** Whether `record` fits allowance `a` with `commitments` counted (the buyer's amounts, spent or reserved, in the allowance's currency; every open one). */
function judge(a: MandateAllowance, commitments: readonly AllowanceCommitment[], record: AllowanceCommitment): Verdict {
  const { spent, reserved, open } = allowanceTotals(commitments);
  const used = spent + reserved;
  const foreign = commitments.find((c) => c.side === "buyer" && c.amount > 0 && c.currency !== a.currency);
  if (foreign)
    return {
      reason: "currency",
      used,
      open,
      ...(foreign.currency === undefined ? {} : { currency: foreign.currency }),
    };
  if (commitments.length >= ALLOWANCE_COMMITMENTS) return { reason: "allowance_store", used, open };
  if (used + record.amount > a.total) return { reason: "allowance", used, open };
  if (a.open !== undefined && open + 1 > a.open) return { reason: "open", used, open, most: a.open };
  return "reserve";
}

/** The refusal's words; without `figures` (agent_view `rules`) no amount of the allowance or of what it counts, only the write's own amount. */
function refusalMessage(
  o: Overrun,
  a: MandateAllowance,
  figures: boolean,
  market: string,
  record: AllowanceCommitment,
): string {
  const said = record.currency === undefined ? "this commitment" : `${record.amount} ${record.currency} (minor units)`;
  switch (o.reason) {
    case "currency":
      return `the owner's allowance in market ${market} is in ${a.currency}, but it already counts commitments in ${o.currency ?? "no currency"}; there is no conversion, so nothing was committed`;
    case "allowance_store":
      return `the owner's allowance store for market ${market} holds ${ALLOWANCE_COMMITMENTS} commitments, the most it counts; nothing was committed`;
    case "open":
      return `the owner allows at most ${counted(o.most, "open commitment")} across market ${market}'s rooms and ${o.open} ${o.open === 1 ? "is" : "are"} open; nothing was committed until one ends (trestle allowance reconcile releases those whose rooms ended them)`;
    case "allowance":
      return figures
        ? `${said} would bring what the owner spent and holds reserved across market ${market}'s rooms to ${moneyText(o.used + record.amount, a.currency)}, past their allowance of ${moneyText(a.total, a.currency)}; it was not committed`
        : `${said} would pass the owner's allowance across market ${market}'s rooms (what they spent and hold reserved there); it was not committed`;
  }
}

/** Waits for a change of the store after the write's outcome; when the store cannot take it, the reservation stays as it was (counted: fail closed) until a reconcile. */
async function keepReserved(change: Promise<unknown>): Promise<void> {
  await change.catch(() => undefined);
}
