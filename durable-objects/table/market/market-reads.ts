/**
 * A market's reads on its table object (docs/SPEC.md §5.15, §6.1): its live listings as a search
 * answers them (each with its text, read from its entry), and a match with the citation its room's
 * config carries (the match entry, the link before it, and this relay's head signature at it).
 * Callers authorize first: a signed read by a seat or owner, or anyone at a public market.
 */
import { TrestleError } from "../../../src/protocol/errors.js";
import { citeMatch } from "../../../src/protocol/policy/market/citation.js";
import { requireMarket, quantityLeft } from "../../../src/protocol/policy/market/listing-live.js";
import { matchAt } from "../../../src/protocol/policy/market/recorded-deals.js";
import { searchListings } from "../../../src/protocol/reading/market-search.js";
import { GENESIS_LINK } from "../../../src/protocol/ledger/chain.js";
import { ListingQuerySchema, type ListingView, type MatchResponse } from "../../../src/protocol/schemas/market.js";
import { parseOrThrow } from "../../../src/protocol/errors.js";
import type { Principal } from "../../../src/protocol/schemas/auth.js";
import type { ReadAuth, TableContext } from "../context.js";

/** Who reads a market: the signed read's principal, or nobody in particular (null) at a public market read without one. */
export async function marketReader(t: TableContext, auth: ReadAuth): Promise<Principal | null> {
  const state = t.requireState();
  requireMarket(state, "reading listings and matches");
  if (auth.header === null && state.config.public === true) return null;
  return t.reader(auth);
}

/** The live listings that fit `query` (the route's query parameters, parsed here) now, newest first, at most a page. */
export function readListings(t: TableContext, query: unknown): ListingView[] {
  const state = t.requireState();
  return searchListings(state, parseOrThrow(ListingQuerySchema, query, "listing query"), t.now()).map(
    ({ leaf, listing }) => {
      const entry = t.ledger.range(listing.seq, listing.seq, 1)[0];
      const text =
        entry?.kind === "listing"
          ? entry.text
          : entry?.kind === "system" && entry.subkind === "group_listing"
            ? entry.data.text
            : undefined;
      return {
        leaf,
        seq: listing.seq,
        owner: listing.owner,
        ...(listing.seat === null ? {} : { seat: listing.seat }),
        ...(listing.via === null ? {} : { via: listing.via }),
        side: listing.side,
        title: listing.title,
        ...(text === undefined ? {} : { text }),
        category: listing.category,
        quantity: listing.quantity,
        left: quantityLeft(listing),
        ...(listing.price === null ? {} : { price: listing.price }),
        expires: listing.expires,
        ...(listing.sealed === null
          ? {}
          : {
              sealed: {
                until: listing.sealed.until,
                reveal_until: listing.sealed.reveal_until,
                bids: Object.keys(listing.sealed.commits).length,
              },
            }),
      };
    },
  );
}

/** The match at `seq` with its citation, signed now by this relay; E_UNKNOWN_MATCH for any other entry. */
export async function readMatch(t: TableContext, seq: number): Promise<MatchResponse> {
  const market = requireMarket(t.requireState(), "a match");
  const match = matchAt(market, seq);
  const [entry] = t.ledger.range(seq, seq, 1);
  if (!entry || entry.kind !== "system" || entry.subkind !== "match")
    throw new TrestleError("E_UNKNOWN_MATCH", `no match at entry ${seq} in this market`, { match: seq });
  const prev = seq === 1 ? GENESIS_LINK : t.ledger.linkAt(seq - 1);
  if (prev === undefined) throw new TrestleError("E_INTERNAL", `no link before entry ${seq}`);
  const head = await t.headAt({ seq, link: entry.link });
  return { citation: citeMatch(entry, prev, head.sig), room: match.room, deal: match.deal };
}
