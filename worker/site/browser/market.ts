/**
 * A public market in the viewer (docs/VIEW.md "A public market"): after each verification, the
 * market's listings (live first, each ended one with how it ended; the same items as the principal
 * window's, src/page/listing-item.ts), its matches (both sides, the words they share, the room,
 * the recorded deal) and the deals it recorded (the match, the room, the quantity closed, both
 * owners; the price stays in the room), folded from what the page verified (verified-board.ts),
 * with the basis said above them. Members' words go into the page as text.
 */
import type { VerifyReport } from "../../../src/protocol/index.js";
import type { BoardDeal, BoardMatch } from "../../../src/text/market-board.js";
import { unitsText } from "../../../src/text/market.js";
import { h, type Doc, type El } from "../../../src/page/dom.js";
import { listingItem } from "../../../src/page/listing-item.js";
import type { VerifiedBoard } from "./verified-board.js";

/** Fills `section` with `shown` (hidden when null: no market, or nothing of it verified), its basis in words from `report`. */
export function showMarket(doc: Doc, section: El, shown: VerifiedBoard | null, report: VerifyReport): void {
  section.hidden = shown === null;
  if (shown === null) return section.replaceChildren();
  const { board, through } = shown;
  const live = board.listings.filter((l) => l.standing === "live").length;
  const basis =
    report.verdict === "REFUTED"
      ? `Folded in this page from entries 1 to #${through} only: the ledger is REFUTED at #${report.refuted?.seq ?? "?"}, so nothing from there on is shown here.`
      : `Folded in this page by the policy's own code from the ${through} entries verified (${report.verdict})${report.coverage.policy_replay === "full" ? "; matching was replayed, so every match below is one the rules call for and none is missing" : ""}.`;
  const list = (className: string, items: El[], empty: string) =>
    items.length > 0 ? h(doc, "ul", className, ...items) : h(doc, "p", "empty", empty);
  section.replaceChildren(
    h(doc, "h2", "", "Market"),
    h(doc, "p", "coverage", basis),
    h(doc, "h3", "", `Listings (${live} live of ${board.listings.length})`),
    list(
      "listings",
      board.listings.map((l) => listingItem(doc, l)),
      "No listing yet.",
    ),
    h(doc, "h3", "", `Matches (${board.matches.length})`),
    list(
      "matches",
      board.matches.map((m) => matchItem(doc, m)),
      "No match yet.",
    ),
    h(doc, "h3", "", `Deals recorded (${board.deals.length})`),
    list(
      "deals",
      board.deals.map((d) => dealItem(doc, d)),
      "No deal recorded yet.",
    ),
  );
}

/** A list item of class `className` for entry `seq`, holding `children`. */
function entryItem(doc: Doc, className: string, seq: number, ...children: (El | string)[]): El {
  const item = h(doc, "li", className, ...children);
  item.setAttribute("data-seq", String(seq));
  return item;
}

function matchItem(doc: Doc, m: BoardMatch): El {
  const head = h(
    doc,
    "div",
    "match-head",
    h(doc, "span", "seq", `#${m.seq}`),
    " ",
    h(doc, "span", "who", m.offer.owner),
    "'s offer ",
    h(doc, "q", "", m.offer.title),
    ` (#${m.offer.seq}) with `,
  );
  head.append(
    h(doc, "span", "who", m.want.owner),
    "'s want ",
    h(doc, "q", "", m.want.title),
    ` (#${m.want.seq}) · ${unitsText(m.quantity)}`,
  );
  const recorded = m.deal === null ? " · no deal recorded yet" : ` · deal recorded at #${m.deal}`;
  const item = entryItem(
    doc,
    "match",
    m.seq,
    head,
    h(
      doc,
      "div",
      "match-words",
      m.sale === null ? `words in common: ${m.words.join(", ")}` : `sold by sealed bids at ${m.sale}`,
    ),
    h(doc, "div", "match-room", "room ", h(doc, "code", "", m.room), recorded),
  );
  item.setAttribute("data-room", m.room);
  return item;
}

function dealItem(doc: Doc, d: BoardDeal): El {
  const signed = ` · closed ${unitsText(d.quantity)} · signed by ${d.owners[0]} and ${d.owners[1]} over terms `;
  return entryItem(
    doc,
    "deal",
    d.seq,
    h(doc, "span", "seq", `#${d.seq}`),
    ` match #${d.match} · room `,
    h(doc, "code", "", d.room),
    signed,
    h(doc, "code", "", `${d.deal.slice(0, 12)}…`),
  );
}
