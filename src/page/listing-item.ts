/**
 * One market listing as a page shows it, the same in the principal window (the owner's listings)
 * and in the public viewer (every listing of a public market, worker/site/browser/market.ts): its
 * side, title and standing, then its entry, category, quantity left, public price and when it ends
 * (a <time>, time.ts) or how it ended, where its sealed bids stand (if it takes them), and its text. Titles and texts are the member's words, put in
 * the document as text; how it ended is trestle's, its instants as <time>.
 */
import type { BoardListing } from "../text/market-board.js";
import { h, type Doc, type El } from "./dom.js";
import { timeElement, withTimes } from "./time.js";

/** A listing as a page gets it: the board's, the owner left out where every listing shown is the reader's. */
export type ShownListing = Omit<BoardListing, "owner"> & { owner?: string };

/** The standing's label, shown once as its badge. */
const STANDING: Record<BoardListing["standing"], { label: string; badge: string }> = {
  live: { label: "LIVE", badge: "ok" },
  withdrawn: { label: "WITHDRAWN", badge: "" },
  superseded: { label: "SUPERSEDED", badge: "" },
  filled: { label: "FILLED", badge: "ok" },
  expired: { label: "EXPIRED", badge: "warn" },
  left: { label: "AUTHOR LEFT", badge: "warn" },
};

/** A list item for `l`. */
export function listingItem(doc: Doc, l: ShownListing): El {
  const standing = STANDING[l.standing];
  const head = h(
    doc,
    "div",
    "listing-head",
    h(doc, "span", `badge side-${l.side}`, l.side),
    " ",
    h(doc, "strong", "listing-title", l.title),
    " ",
    h(doc, "span", ["badge", standing.badge, "standing"].filter((c) => c !== "").join(" "), standing.label),
  );
  const by = l.owner === undefined ? [] : [` · by ${l.owner} (${l.seat})`];
  const facts = h(
    doc,
    "div",
    "listing-facts",
    `#${l.seq} · ${l.category} · ${l.left} of ${l.quantity} left · ${l.price}`,
    ...by,
  );
  const item = h(doc, "li", `listing standing-${l.standing}`, head, facts);
  item.setAttribute("data-seq", String(l.seq));
  item.setAttribute("data-standing", l.standing);
  item.append(
    l.ended === null
      ? h(doc, "div", "listing-when", "ends ", timeElement(doc, l.expires))
      : h(doc, "div", "listing-when", ...withTimes(doc, l.ended)),
  );
  if (l.sealed !== null) item.append(h(doc, "div", "listing-sealed", ...withTimes(doc, l.sealed)));
  if (l.text !== null) item.append(h(doc, "div", "listing-text body", l.text));
  return item;
}
