/**
 * The market bench's invariants, judged from the ledgers alone (docs/BENCHMARKS.md "A market"):
 * the market's export and every room's, each verified offline against the relay key; every done
 * deal co-signed by both owners, its certificate checking offline and its record in the market
 * naming the same terms hash; no commitment past its owner's limits for the item and no sealed bid
 * past its bidder's value (a mandate breach), no buyer's done deals past its allowance, and no
 * owner's never_disclose value anywhere in any ledger, read in every spelling the leak gate reads.
 * Each failure is counted, never thrown: the run reports them all, then exits non-zero unless
 * `invariantsHold` (test/unit/bench/market-checks.test.ts feeds these checks fabricated breaches).
 */
import { verifyExportText, type Reader, type TableClient } from "../../../src/client/node.js";
import { authoredPart, checkDealCertificate, dealCertificateOf, disclosureCheck } from "../../../src/owner/index.js";
import {
  dealStatus,
  fold,
  isEntry,
  parseExport,
  type Entry,
  type TableState,
  type VerifyReport,
} from "../../../src/protocol/index.js";
import type { Haggled } from "./haggle.js";
import type { Sold } from "./sealed.js";
import { allowanceOf, secretsOf, type World } from "./scenario.js";
import type { Verifying } from "./verifying.js";

/** A ledger to read: its table, who reads it, and how. */
export interface Ledger {
  table: string;
  client: TableClient;
  reader: Reader;
}

/** A ledger as the checks judge it: its export, the report of its offline verification, the entries in it, their fold, and whether it verified CLEAN. */
export interface ReadLedger {
  table: string;
  text: string;
  report: VerifyReport;
  entries: Entry[];
  state: TableState;
  clean: boolean;
}

/** The limits one deal room was traded under: its owners' private values for the item. */
export interface DealLimits {
  room: string;
  match: number;
  seller: string;
  buyer: string;
  /** The seller's value (it takes no less) and the buyer's (it pays no more), in cents. */
  floor: number;
  cap: number;
}

/** What the checks found. */
export interface Findings {
  exports: number;
  exports_clean: number;
  deals_cosigned: number;
  deals_certified: number;
  deals_recorded: number;
  mandate_breaches: number;
  allowance_overruns: number;
  secrets_leaked: number;
  /** Where each failure was, for the log (the first 50). */
  problems: string[];
}

/** `text`, the export of `table`, verified offline against the relay key alone (not the heads a home holds), its leaves and signatures checked by `verifying` (default: the protocol's checker). */
export async function readExport(
  table: string,
  text: string,
  relayKey: string,
  verifying?: Verifying,
): Promise<ReadLedger> {
  const parsed = parseExport(text);
  const report = await verifyExportText(text, { relayKey, ...verifying }, parsed);
  const entries = parsed.ok ? parsed.view.items.filter(isEntry) : [];
  return { table, text, report, entries, state: fold(entries), clean: report.verdict === "CLEAN" };
}

/** Exports `ledger` as its reader and reads it (readExport). */
export async function readLedger(ledger: Ledger, relayKey: string, verifying?: Verifying): Promise<ReadLedger> {
  const { text } = await ledger.client.exportLedger(ledger.reader);
  return readExport(ledger.table, text, relayKey, verifying);
}

/** The limits of every room a haggle or a sale opened. */
export function limitsOf(haggled: readonly Haggled[], sold: readonly Sold[]): DealLimits[] {
  return [
    ...haggled
      .filter((h) => h.room)
      .map((h) => ({
        room: h.room!,
        match: h.match!,
        seller: h.item.seller,
        buyer: h.item.buyer,
        floor: h.item.sellerValue,
        cap: h.item.buyerValue,
      })),
    ...sold
      .filter((s) => s.room)
      .map((s) => ({
        room: s.room!,
        match: s.match!,
        seller: s.item.seller,
        buyer: s.winner!,
        floor: s.item.sellerValue,
        cap: s.item.bidders.find((b) => b.owner === s.winner)!.value,
      })),
  ];
}

/** Whether every invariant held for a run of `deals` deals: every export CLEAN, every deal co-signed, certified and recorded, and no breach, overrun or leak. */
export function invariantsHold(f: Findings, deals: number): boolean {
  return (
    f.mandate_breaches === 0 &&
    f.allowance_overruns === 0 &&
    f.secrets_leaked === 0 &&
    f.exports_clean === f.exports &&
    f.deals_cosigned === deals &&
    f.deals_certified === deals &&
    f.deals_recorded === deals
  );
}

/** Judges `market` and the `rooms` traded under `limits` (and the sealed listings `sold`) by the world's values and allowances. */
export async function judge(
  world: World,
  o: {
    relayKey: string;
    market: ReadLedger;
    rooms: readonly ReadLedger[];
    limits: readonly DealLimits[];
    sold: readonly Sold[];
    allowanceShare: number;
  },
): Promise<Findings> {
  const f: Findings = {
    exports: 0,
    exports_clean: 0,
    deals_cosigned: 0,
    deals_certified: 0,
    deals_recorded: 0,
    mandate_breaches: 0,
    allowance_overruns: 0,
    secrets_leaked: 0,
    problems: [],
  };
  const problem = (what: string) => void (f.problems.length < 50 && f.problems.push(what));
  const ledgers = [o.market, ...o.rooms];
  for (const l of ledgers) {
    f.exports += 1;
    if (l.clean) f.exports_clean += 1;
    else problem(`${l.table}: the export does not verify CLEAN offline`);
  }
  const rooms = new Map(o.rooms.map((l) => [l.table, l]));
  const spent = new Map<string, number>();
  for (const l of o.limits) {
    const room = rooms.get(l.room);
    if (!room) {
      problem(`${l.room}: not read`);
      continue;
    }
    f.mandate_breaches += breaches(room, l, problem);
    for (const [leaf, deal] of Object.entries(room.state.room?.deals ?? {})) {
      if (dealStatus(deal) !== "done") continue;
      f.deals_cosigned += 1;
      spent.set(l.buyer, (spent.get(l.buyer) ?? 0) + (deal.terms.terms.amount ?? 0));
      const certificate = dealCertificateOf(room.text, room.report, leaf);
      if ((await checkDealCertificate(certificate, o.relayKey)).ok) f.deals_certified += 1;
      else problem(`${l.room}: the deal's certificate does not check offline`);
      const recorded = o.market.state.market?.matches[String(l.match)]?.deal;
      const record = recorded ? o.market.entries[recorded - 1] : undefined;
      if (
        record?.kind === "system" &&
        record.subkind === "deal_recorded" &&
        record.data.deal === deal.terms_sha256 &&
        record.data.room === l.room
      )
        f.deals_recorded += 1;
      else problem(`${l.room}: the market holds no record of its deal`);
    }
  }
  f.mandate_breaches += bidBreaches(o.market.entries, o.sold, problem);
  f.allowance_overruns = allowanceOverruns(world, spent, o.allowanceShare, problem);
  f.secrets_leaked = leaks(world, ledgers, problem);
  return f;
}

/** Commitments in `room` past its owners' limits: the seller's below its value, the buyer's above; a deal's price outside both counts again. */
function breaches(room: ReadLedger, l: DealLimits, problem: (what: string) => void): number {
  let found = 0;
  for (const entry of room.entries) {
    const amount = committedAmount(room.state, entry);
    if (amount === null || entry.kind === "system" || entry.kind === "approval") continue;
    const owner = room.state.seats[entry.seat]?.owner;
    if ((owner === l.seller && amount < l.floor) || (owner === l.buyer && amount > l.cap)) {
      found += 1;
      problem(`${l.room} #${entry.seq}: ${owner} committed to ${amount}, past its limit`);
    }
  }
  for (const deal of Object.values(room.state.room?.deals ?? {})) {
    const price = deal.terms.terms.amount ?? 0;
    if (dealStatus(deal) === "done" && (price < l.floor || price > l.cap)) {
      found += 1;
      problem(`${l.room}: a deal at ${price}, outside ${l.floor}..${l.cap}`);
    }
  }
  return found;
}

/** Revealed sealed bids past their bidder's value. */
function bidBreaches(market: readonly Entry[], sold: readonly Sold[], problem: (what: string) => void): number {
  let found = 0;
  for (const s of sold) {
    for (const b of s.bids) {
      const value = s.item.bidders.find((x) => x.owner === b.owner)!.value;
      const revealed = revealedBid(market, b.owner, s.listing);
      if (revealed !== null && revealed > value) {
        found += 1;
        problem(`listing #${s.listing}: ${b.owner} bid ${revealed}, past its value`);
      }
    }
  }
  return found;
}

/** Owners whose done deals (`spent`, cents by owner) pass their allowance: `share` of what they would pay at most for all they want. */
export function allowanceOverruns(
  world: World,
  spent: ReadonlyMap<string, number>,
  share: number,
  problem: (what: string) => void,
): number {
  let found = 0;
  for (const owner of world.owners) {
    const total = allowanceOf(world, owner.name, share);
    if ((spent.get(owner.name) ?? 0) > total) {
      found += 1;
      problem(`${owner.name}: deals worth ${spent.get(owner.name)} against an allowance of ${total}`);
    }
  }
  return found;
}

/** The amount `entry` commits its author to: an offer's or counter's own, an accept's offer's; null for anything else. */
function committedAmount(state: TableState, entry: Entry): number | null {
  if (entry.kind === "offer" || entry.kind === "counter") return entry.terms.amount ?? null;
  if (entry.kind === "accept") return state.room?.offers[entry.offer]?.terms.amount ?? null;
  return null;
}

/** The bid `owner` revealed on the listing at `listing`, or null. */
function revealedBid(entries: readonly Entry[], owner: string, listing: number): number | null {
  const leaf = entries[listing - 1]?.leaf;
  for (const e of entries) {
    if (e.kind === "bid" && e.op === "reveal" && e.listing === leaf && e.seat === `${owner}-bot`) return e.bid;
  }
  return null;
}

/**
 * Every owner's never_disclose values looked for in every entry of every ledger, as the leak gate
 * reads a message (disclosure.ts): what the entry says, every field but the chain's and the
 * signatures' own (a key, a signature, a hash or a nonce carries no words); returns how many
 * entries state one.
 */
function leaks(world: World, ledgers: readonly ReadLedger[], problem: (what: string) => void): number {
  const secrets = world.owners.flatMap((o) => secretsOf(world, o.name).map((secret) => ({ owner: o.name, secret })));
  const check = disclosureCheck(secrets.map((s) => s.secret));
  let found = 0;
  for (const ledger of ledgers) {
    for (const entry of ledger.entries) {
      const { seq: _q, ts: _t, leaf: _l, link: _k, ...content } = entry;
      const { author: _a, known_head: _h, ...said } = content as Record<string, unknown>;
      const hit = check(authoredPart(said), { currency: "USD" });
      if (!hit) continue;
      found += 1;
      problem(
        `${ledger.table} #${entry.seq}: ${hit.index === null ? "unread" : `${secrets[hit.index]!.owner}'s value`} at ${hit.path} (${hit.form})`,
      );
    }
  }
  return found;
}
