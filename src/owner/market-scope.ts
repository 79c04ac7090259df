/**
 * The markets and categories a mandate lets a seat trade in (docs/MARKETS.md "An owner's
 * allowance"): with `markets` or `categories`, a write that trades (a listing, a commitment, a
 * deal_sign) is refused before signing unless its table is one of those markets, or the room of a
 * match of one, and its category is one of those: a listing's own, a sealed bid's listing's, or in
 * a match's room both listings' the match cites (a sale's one listing). At any other table such a mandate trades nothing, since nothing there
 * shows a market or a category. The listings are read from the market as the owner (the owner key
 * in this home) and each is checked against the leaf the room's verified citation names, so a relay
 * cannot pass another listing off as the matched one.
 */
import { readKeyFile } from "../client/keys.js";
import { ownerKeyPath } from "../client/home.js";
import type { HttpClient } from "../client/index.js";
import { existsSync } from "node:fs";
import {
  isEntry,
  leafOf,
  own,
  TrestleError,
  type MatchCitation,
  type Submission,
  type TableConfig,
  type TableState,
} from "../protocol/index.js";
import { roomCommitment } from "../protocol/policy/kinds/registry.js";
import { isCommitment } from "./commitments.js";
import type { Refuse } from "./guard-refusal.js";
import type { Mandate } from "./records.js";

/** The market a table trades in: the market itself, or the one whose match a room's config cites; null for any other table. */
export function marketOf(config: TableConfig): string | null {
  if (config.market) return config.id;
  return config.room?.match?.market ?? null;
}

/** Whether writing `s` trades: a listing, a commitment, or a write about a deal (an owner's signature of it). */
export function trades(s: Submission): boolean {
  return s.kind === "listing" || isCommitment(s) || roomCommitment(s).deal !== undefined;
}

/** Where a write is judged: the seat, its table, the verified state (null when it cannot be folded), and how the categories of a match's listings are read. */
export interface ScopeContext {
  seat: string;
  table: string;
  state: TableState | null;
  categories(citation: MatchCitation): Promise<string[]>;
}

/** Applies mandate `m`'s markets and categories to `s`; calls `refuse` (which throws) when `s` trades outside them, and returns when it does not. */
export async function checkMarketScope(m: Mandate, s: Submission, at: ScopeContext, refuse: Refuse): Promise<void> {
  if ((m.markets === undefined && m.categories === undefined) || !trades(s)) return;
  const market = at.state ? marketOf(at.state.config) : null;
  if (market === null) {
    return refuse(
      "mandate",
      "E_MANDATE",
      "market",
      `the mandate lets seat ${at.seat} trade only in ${scopeText(m)}, and ${at.table} is neither a market nor the room of a market's match; nothing was committed`,
    );
  }
  if (m.markets !== undefined && !m.markets.includes(market)) {
    return refuse(
      "mandate",
      "E_MANDATE",
      "market",
      `the mandate does not let seat ${at.seat} trade in market ${market} (only in ${scopeText(m)}); nothing was committed`,
    );
  }
  const allowed = m.categories;
  if (allowed === undefined) return;
  const citation = at.state?.config.room?.match;
  let categories: string[];
  if (s.kind === "listing") categories = [s.category];
  else if (s.kind === "bid")
    categories = [
      bidCategory(at.state, s.listing) ??
        refuse(
          "mandate",
          "E_MANDATE",
          "category",
          `the listing this bid names is not in the verified transcript, so its category cannot be established; nothing was committed`,
        ),
    ];
  else if (citation)
    categories = await at
      .categories(citation)
      .catch((error: unknown) =>
        refuse(
          "mandate",
          "E_MANDATE",
          "category",
          `the categories of the listings this room's match cites cannot be established (${errorText(error)}); nothing was committed`,
        ),
      );
  else
    return refuse(
      "mandate",
      "E_MANDATE",
      "category",
      `the mandate lets seat ${at.seat} trade only in categories ${allowed.join(", ")}, and at market ${market} only a listing has a category; nothing was committed`,
    );
  const outside = categories.find((c) => !allowed.includes(c));
  if (outside !== undefined)
    refuse(
      "mandate",
      "E_MANDATE",
      "category",
      `the mandate does not let seat ${at.seat} trade in category ${outside} (only in ${allowed.join(", ") || "none"}); nothing was committed`,
    );
}

/** The category of the listing at `leaf` a sealed bid names, from the verified state; undefined when the state holds no such listing. */
function bidCategory(state: TableState | null, leaf: string): string | undefined {
  return state?.market ? own(state.market.listings, leaf)?.category : undefined;
}

/** The markets and categories of `m` in words. */
function scopeText(m: Mandate): string {
  const markets =
    m.markets === undefined ? "any market" : m.markets.length === 0 ? "no market" : `market ${m.markets.join(", ")}`;
  return m.categories === undefined
    ? markets
    : `${markets}, categories ${m.categories.length === 0 ? "none" : m.categories.join(", ")}`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The categories of the offer and the want the match `citation` cites, read from its market over
 * `http` as the owner whose key signed mandate `m` (its key file in trestle home `home`), the side of
 * the match that key is; E_MANDATE when this home holds no such key or a listing the relay serves is
 * not the entry whose leaf the match names.
 */
export async function matchCategories(
  http: HttpClient,
  home: string,
  m: Mandate,
  ownerKey: string,
  citation: MatchCitation,
): Promise<string[]> {
  const path = ownerKeyPath(home, m.owner);
  if (!existsSync(path))
    throw new TrestleError(
      "E_MANDATE",
      `this home holds no owner key for ${m.owner}, and the market is read as its member`,
    );
  const key = await readKeyFile(path, "owner");
  if (key.signer.publicKeyText !== ownerKey)
    throw new TrestleError("E_MANDATE", `the owner key of ${m.owner} in this home did not sign the mandate`);
  const { data } = citation;
  const side = [data.offered_by, data.wanted_by].find((p) => p.key === ownerKey);
  if (!side) throw new TrestleError("E_MANDATE", "the owner is neither side of the match");
  const reader = { signer: key.signer, as: { owner: side.owner } };
  const read = async (seq: number, leaf: string): Promise<string> => {
    const page = await http.entries(citation.market, reader, seq, seq);
    const entry = page.items.find((item) => item.seq === seq);
    if (!entry || !isEntry(entry) || entry.kind !== "listing" || leafOf(entry) !== leaf) {
      throw new TrestleError(
        "E_MANDATE",
        `entry ${seq} of market ${citation.market}, as the relay serves it, is not the listing the match names`,
      );
    }
    return entry.category;
  };
  return Promise.all(citedListings(citation).map(([seq, leaf]) => read(seq, leaf)));
}

/** The listings a match cites, as [seq, leaf]: the offer and the want, or a sale's listing alone (its `want` is the winning bid, whose listing is the offer). */
export function citedListings(citation: MatchCitation): [number, string][] {
  const { data } = citation;
  return data.sale
    ? [[data.offer_seq, data.offer]]
    : [
        [data.offer_seq, data.offer],
        [data.want_seq, data.want],
      ];
}
