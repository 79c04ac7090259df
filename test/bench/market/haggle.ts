/**
 * One item haggled over, end to end (docs/BENCHMARKS.md "A market"): the seller lists its offer,
 * the buyer its want, and the market matches them; the room of the match is opened by one side
 * (drawn per item) and joined by the other; the opener offers first, then the agents trade offers
 * and counters by their styles (tactics.ts), each reading its own verified transcript before it
 * moves, until one accepts or the last of them walks away; the accepting side's standing rule
 * signs the deal with its owner's key, the other side's signs once its agent sees the accept, and
 * the room has the market record the deal. Now and then an agent first tries what its mandate
 * forbids (its limit in words, or a price past it): a probe, which the guards must refuse.
 */
import { matchesOf } from "../../../src/client/node.js";
import { marketState, type Transcript } from "../../../src/owner/index.js";
import type { SeatSubmission } from "../../../src/client/node.js";
import type { OfferState } from "../../../src/protocol/index.js";
import type { AgentSeat, Member } from "./members.js";
import { openRoom, refusedBy, type Refusals } from "./rooms.js";
import { dollars, type Item } from "./scenario.js";
import { accepts, offerAt, reservation, ROUNDS, type Side } from "./tactics.js";

/** How one haggle ended. */
export interface Haggled {
  item: Item;
  match: number | null;
  room: string | null;
  /** `deal`: accepted and both owners' signatures sent; `no_deal`: walked away; `allowance`: the buyer's allowance refused the deal. */
  outcome: "deal" | "no_deal" | "allowance" | "no_match";
  price: number | null;
  /** Offers and counters written by both sides. */
  moves: number;
}

/** What a run keeps across items: the guards' refusals, the probes tried and refused, sealed bids the deadline passed, items that failed otherwise, the seqs of the market entries members wrote, and the run's chance. */
export interface Tally {
  refusals: Refusals;
  lateBids: number;
  errors: string[];
  probes: { tried: number; refused: number };
  marketWrites: Set<number>;
  random: () => number;
}

/** Chance that an agent tries a probe before a move. */
const PROBE_RATE = 0.05;

/** Lists `item` (offer, then want), enters the room of its match and haggles it out. */
export async function haggle(members: Map<string, Member>, item: Item, tally: Tally): Promise<Haggled> {
  const seller = members.get(item.seller)!;
  const buyer = members.get(item.buyer)!;
  const expires = Date.now() + 3_600_000;
  const offer = await seller.marketSeat.send({
    kind: "listing",
    side: "offer",
    title: item.offerTitle,
    category: item.category,
    quantity: 1,
    price: { currency: "USD", min: Math.floor((item.sellerValue * 0.8) / 100) * 100 },
    expires,
  });
  tally.marketWrites.add(offer.seq);
  await buyer.marketSeat.after(offer.seq - 1);
  const want = await buyer.marketSeat.send({
    kind: "listing",
    side: "want",
    title: item.wantTitle,
    category: item.category,
    quantity: 1,
    price: { currency: "USD", max: Math.ceil(item.buyerValue / 100) * 100 },
    expires,
  });
  tally.marketWrites.add(want.seq);
  const market = marketState(await buyer.marketSeat.transcript());
  const wantLeaf = leafAt(await buyer.marketSeat.transcript(), want.seq);
  const match = matchesOf(market, buyer.owner.publicKeyText).find((m) => m.mine === wantLeaf);
  if (!match) return { item, match: null, room: null, outcome: "no_match", price: null, moves: 0 };
  const sellerSide: Side = { role: "seller", value: item.sellerValue, style: seller.style };
  const buyerSide: Side = { role: "buyer", value: item.buyerValue, style: buyer.style };
  const sides = await openRoom({
    seq: match.seq,
    seller,
    buyer,
    opener: item.opener,
    floor: item.sellerValue,
    cap: item.buyerValue,
    sellerCap: Math.ceil((item.sellerValue * 2) / 100) * 100,
  });
  try {
    const ended = await negotiate(
      { seller: sides.seller, buyer: sides.buyer },
      { seller: sellerSide, buyer: buyerSide },
      item.opener,
      tally,
    );
    return { item, match: match.seq, room: sides.room, ...ended };
  } finally {
    sides.seller.close();
    sides.buyer.close();
  }
}

/** The leaf of entry `seq` in `transcript`. */
function leafAt(transcript: Transcript, seq: number): string {
  const entry = transcript.entries.find((e) => e.seq === seq);
  if (!entry) throw new Error(`entry ${seq} is not in the transcript`);
  return entry.leaf;
}

type Role = "seller" | "buyer";

/** The live offer `of` wrote last in `transcript`'s room, with its leaf. */
function liveOffer(transcript: Transcript, of: string): { leaf: string; offer: OfferState } | null {
  const offers = Object.entries(transcript.state?.room?.offers ?? {}).filter(
    ([, o]) => o.seat === of && o.status === "open",
  );
  offers.sort((a, b) => b[1].seq - a[1].seq);
  const [leaf, offer] = offers[0] ?? [];
  return leaf && offer ? { leaf, offer } : null;
}

/** The haggle itself: the side that opened the room makes the first offer, then each side in turn accepts, counters, or at the end walks away. */
async function negotiate(
  seats: Record<Role, AgentSeat>,
  sides: Record<Role, Side>,
  first: Role,
  tally: Tally,
): Promise<Pick<Haggled, "outcome" | "price" | "moves">> {
  const made: Record<Role, number> = { seller: 0, buyer: 0 };
  let moves = 0;
  let last: number;
  try {
    last = (
      await seats[first].send(
        await move(
          seats[first],
          sides[first],
          { kind: "offer", terms: { amount: offerAt(sides[first], 0), currency: "USD" } },
          tally,
        ),
      )
    ).seq;
  } catch (error) {
    return walkAway(seats[first], refusedBy(error, tally.refusals) === "allowance" ? "allowance" : "no_deal", moves);
  }
  made[first] = 1;
  moves += 1;
  let turn: Role = first === "seller" ? "buyer" : "seller";
  for (;;) {
    const other: Role = turn === "seller" ? "buyer" : "seller";
    const seat = seats[turn];
    const side = sides[turn];
    await seat.after(last - 1);
    const transcript = await seat.transcript();
    const live = liveOffer(transcript, seats[other].guarded.seat);
    if (!live) throw new Error(`no live offer of the ${other} in the room after entry ${last}`);
    const amount = live.offer.terms.amount!;
    if (accepts(side, amount, made[turn])) {
      try {
        const accepted = await seat.send({ kind: "accept", offer: live.leaf });
        await signAfter(seats[other], accepted.seq);
        return { outcome: "deal", price: amount, moves };
      } catch (error) {
        return walkAway(seat, refusedBy(error, tally.refusals) === "allowance" ? "allowance" : "no_deal", moves);
      }
    }
    if (made[turn] >= ROUNDS) return walkAway(seat, "no_deal", moves);
    const counter: SeatSubmission = {
      kind: "counter",
      offer: live.leaf,
      terms: { amount: offerAt(side, made[turn]), currency: "USD" },
    };
    try {
      last = (await seat.send(await move(seat, side, counter, tally))).seq;
    } catch (error) {
      const reason = refusedBy(error, tally.refusals);
      return walkAway(seat, reason === "allowance" ? "allowance" : "no_deal", moves);
    }
    made[turn] += 1;
    moves += 1;
    turn = other;
  }
}

/** The side that did not accept signs the deal under its standing rule, once its agent sees the accept at `seq`. */
async function signAfter(seat: AgentSeat, seq: number): Promise<void> {
  await seat.after(seq - 1);
  const signed = await seat.guarded.signStandingDeals();
  if (!signed.some((d) => d.signed))
    throw new Error(`the deal in ${seat.guarded.table} was not signed: ${JSON.stringify(signed)}`);
}

/** The side ends the room without a deal. */
async function walkAway(
  seat: AgentSeat,
  outcome: "no_deal" | "allowance",
  moves: number,
): Promise<Pick<Haggled, "outcome" | "price" | "moves">> {
  await seat.send({ kind: "close", outcome: "no_deal" });
  return { outcome, price: null, moves };
}

/**
 * `intended`, after a probe now and then: the same move first with the side's limit in its text,
 * or at a price past its limit, which the guards must refuse. A probe that was not refused is in
 * the ledger, where the run's checks find it.
 */
async function move(seat: AgentSeat, side: Side, intended: SeatSubmission, tally: Tally): Promise<SeatSubmission> {
  if (tally.random() >= PROBE_RATE || (intended.kind !== "offer" && intended.kind !== "counter")) return intended;
  tally.probes.tried += 1;
  const leak = tally.random() < 0.5;
  const past = side.role === "seller" ? reservation(side) - 100 : reservation(side) + 100;
  const probe: SeatSubmission = leak
    ? { ...intended, body: `honestly, ${dollars(side.value)} is my limit` }
    : { ...intended, terms: { amount: past, currency: "USD" } };
  try {
    await seat.send(probe);
  } catch (error) {
    refusedBy(error, tally.refusals);
    tally.probes.refused += 1;
    return intended;
  }
  throw new Error(
    `a probe (${leak ? "its limit in words" : "a price past its limit"}) was not refused in ${seat.guarded.table}`,
  );
}
