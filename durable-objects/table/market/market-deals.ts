/**
 * Deals recorded back in a market (docs/SPEC.md §5.15), across two tables' objects. The room of a
 * match answers with its done deal (the terms hash and both owners' signatures, read from their
 * deal_sign entries, and its terms); the market's object asks the room for it, orders the signatures by the
 * match's sides, checks them, and appends `system/deal_recorded`, with the terms only when both
 * deal_sign entries carried their owner's consent to show them (decision 0529). Recording is idempotent: a
 * second request for a recorded match answers its entry. The room asks its market to record as
 * soon as its deal is done; a client may ask again (POST /tables/:market/deals) if that was lost.
 */
import { TrestleError, parseOrThrow } from "../../../src/protocol/errors.js";
import { requireMarket } from "../../../src/protocol/policy/market/listing-live.js";
import { dealQuantity, matchAt } from "../../../src/protocol/policy/market/recorded-deals.js";
import { RecordDealRequestSchema } from "../../../src/protocol/schemas/market.js";
import type { RoomDeal } from "../../../src/protocol/schemas/market-deal.js";
import type { SystemDraftOf } from "../../../src/protocol/schemas/entry.js";
import type { MatchParty } from "../../../src/protocol/schemas/match.js";
import { marketStatementsOf } from "../../../src/protocol/signing/market.js";
import { dealStatementsOf } from "../../../src/protocol/signing/deal.js";
import type { TableState } from "../../../src/protocol/policy/state.js";
import type { TableContext } from "../context.js";
import type { WriteOutcome } from "../storage/outcome.js";
import { checkStatements, admitAndAppend } from "../writing/writes.js";

/** Whether `state` is a match room with a deal both owners signed. */
export function hasDoneDeal(state: TableState | null): boolean {
  return state !== null && doneDeal(state) !== undefined;
}

function doneDeal(state: TableState) {
  if (!state.config.room?.match || !state.room) return undefined;
  return Object.values(state.room.deals)
    .filter((d) => Object.keys(d.signed).length === 2)
    .sort((a, b) => a.terms.offer_seq - b.terms.offer_seq)[0];
}

/** Room side: the match room's done deal for its market; E_NOT_ALLOWED while it has none. */
export function roomDeal(t: TableContext): RoomDeal {
  const state = t.requireState();
  const citation = state.config.room?.match;
  if (!citation) throw new TrestleError("E_NOT_ALLOWED", `table ${state.table} is not the room of a market's match`);
  const deal = doneDeal(state);
  if (!deal)
    throw new TrestleError("E_NOT_ALLOWED", `the room of match ${citation.seq} has no deal both owners signed yet`, {
      reason: "no_deal",
    });
  const signatures = Object.entries(deal.signed).map(([owner, seq]) => {
    const entry = t.ledger.range(seq, seq, 1)[0];
    const [signed, shown] = entry ? dealStatementsOf(entry) : [];
    if (!signed) throw new TrestleError("E_INTERNAL", `entry ${seq} carries no deal signature`);
    return { owner, key: signed.key, sig: signed.sig, ...(shown ? { show_price: shown.sig } : {}) };
  });
  return {
    market: citation.market,
    match: citation.seq,
    room: state.table,
    deal: deal.terms_sha256,
    terms: deal.terms,
    signatures,
  };
}

/** Market side: records the deal `fetch` gets from the room the request names; a recorded match answers its entry. */
export async function writeDealRecord(
  t: TableContext,
  body: unknown,
  fetch: (room: string) => Promise<RoomDeal>,
): Promise<WriteOutcome> {
  const { room } = parseOrThrow(RecordDealRequestSchema, body, "deal record request");
  const market = requireMarket(t.requireState(), "recording a deal");
  const dealt = await fetch(room);
  if (dealt.market !== t.requireState().table)
    throw new TrestleError("E_WRONG_TABLE", `room ${room} is of market ${dealt.market}`);
  const match = matchAt(market, dealt.match);
  if (match.room !== room)
    throw new TrestleError("E_WRONG_TABLE", `the room of match ${dealt.match} is ${match.room}, not ${room}`);
  if (match.deal !== null) return { primary: t.ledger.range(match.deal, match.deal, 1)[0]!, appended: [] };
  const signed = (party: MatchParty) => {
    const s = dealt.signatures.find((x) => x.key === party.key);
    if (!s)
      throw new TrestleError("E_NOT_OWNER", `the deal of room ${room} carries no signature by ${party.owner}'s key`);
    return { signature: { owner: party.owner, key: s.key, sig: s.sig }, consent: s.show_price };
  };
  const [offered, wanted] = [signed(match.offered_by), signed(match.wanted_by)];
  // The terms are shown only with both owners' consents; one alone never leaves the room.
  const price =
    offered.consent && wanted.consent
      ? { price: { terms: dealt.terms, consents: [offered.consent, wanted.consent] as [string, string] } }
      : {};
  const draft: SystemDraftOf<"deal_recorded"> = {
    table: t.requireState().table,
    seat: null,
    kind: "system",
    subkind: "deal_recorded",
    data: {
      match: dealt.match,
      room,
      deal: dealt.deal,
      signatures: [offered.signature, wanted.signature],
      quantity: dealQuantity(market, match),
      ...price,
    },
    author: null,
  };
  await checkStatements(marketStatementsOf(draft));
  // The state may have moved while the signatures were checked (the room's own request landed): commit judges the state it lands on.
  const now = matchAt(requireMarket(t.requireState(), "recording a deal"), dealt.match);
  if (now.deal !== null) return { primary: t.ledger.range(now.deal, now.deal, 1)[0]!, appended: [] };
  return admitAndAppend(t, draft);
}
