/**
 * What a room write commits its owner to, in words (docs/SECURITY.md "Never a signature without
 * what it binds"), from the words of terms.ts: an offer's or counter's own terms and expiry; for an
 * accept, counter, reject, withdraw or deal, the offer it answers named and in full, read from the
 * verified state, or plainly that the offer cannot be seen; a grant's scope, grantee and expiry; a
 * sealed bid's amount where this machine holds it. The window's held messages and transcript,
 * `trestle gate list` and the MCP elicitation of a held message all show this line. Also a room
 * entry's words on the one-line rendering of the relay's projection (format.ts), which carries no
 * state: there an answer names its offer or grant by the first characters of its entry hash, as
 * `trestle room show` lists them. And, for a kind whose write takes only common fields, how its
 * derived CLI verb and MCP tool are described. All are in one table by room kind (ROOM_TEXT), so a
 * new kind's words are one entry there and the compiler flags a kind without them.
 * Pure: no I/O, no clock, no Node or Workers globals.
 */
import * as z from "zod";
import { safeJson, safeLine } from "./framing.js";
import { isRoomKind } from "../protocol/policy/kinds/registry.js";
import type { RoomSubmissionOf } from "../protocol/policy/kinds/kind-policy.js";
import type { ProjectedEntry } from "../protocol/schemas/projection.js";
import { own } from "../protocol/encoding/records.js";
import type { SealedField } from "../protocol/signing/sealed-text.js";
import type { AuctionState, GrantState, OfferState } from "../protocol/policy/room-state.js";
import type { TableState } from "../protocol/policy/state.js";
import type { Submission } from "../protocol/schemas/entry.js";
import { MillisSchema } from "../protocol/schemas/primitives.js";
import { EntryHashSchema, TermsSchema, type RoomKind, type Terms } from "../protocol/schemas/room.js";
import type { CommonKind } from "../protocol/rooms/room-writes.js";
import {
  auctionDealText,
  EN_TERMS,
  expiryText,
  fill,
  moneyText,
  offerTermsText,
  offerText,
  quotedText,
  shortHash,
} from "./terms.js";

/** What an answer says when the offer it names is not in the state it was looked up in. */
export function unseenOffer(leaf: string): string {
  return `an offer this view cannot see (${shortHash(leaf)})`;
}

/** Where the words find what a write names: offers, auctions and grants by leaf, a sealed bid's amount, and sealed text opened. */
export interface Named {
  offer(leaf: string): OfferState | undefined;
  auction(leaf: string): AuctionState | undefined;
  grant(leaf: string): GrantState | undefined;
  /** The bid a commitment hides, where this machine holds it (the seat's journal). */
  bid(commitment: string): { amount: number; currency: string } | undefined;
  /** `seat`'s sealed `field` opened where this machine holds the room key; otherwise `text` as given. */
  open(seat: string, field: SealedField, text: string): string;
}

/** Lookups in `state` (the verified table state, or null when there is none), with the caller's bids and opener. */
export function namedIn(state: TableState | null, extra: Partial<Pick<Named, "bid" | "open">> = {}): Named {
  const room = state?.room;
  return {
    offer: (leaf) => (room ? own(room.offers, leaf) : undefined),
    auction: (leaf) => (room ? own(room.auctions, leaf) : undefined),
    grant: (leaf) => (room ? own(room.grants, leaf) : undefined),
    bid: extra.bid ?? (() => undefined),
    open: extra.open ?? ((_seat, _field, text) => text),
  };
}

/** `terms` with its text opened by `named` for `seat`. */
function opened(named: Named, seat: string, terms: Terms): Terms {
  return terms.text === undefined ? terms : { ...terms, text: named.open(seat, "terms.text", terms.text) };
}

/** The offer `leaf` named and in full from `named`, or that it cannot be seen. */
function answered(named: Named, leaf: string): string {
  const offer = named.offer(leaf);
  return offer ? offerText({ ...offer, terms: opened(named, offer.seat, offer.terms) }) : unseenOffer(leaf);
}

/** The auction `leaf` named; `priced`: with the price it settled at, once it settled with a deal. */
function auctionName(named: Named, leaf: string, priced = false): string {
  const auction = named.auction(leaf);
  if (!auction) return `an auction this view cannot see (${shortHash(leaf)})`;
  return priced && auction.price !== null
    ? auctionDealText({ ...auction, price: auction.price })
    : fill(EN_TERMS.auction, { seq: auction.seq });
}

/** The room fields of a projected entry's data the one-line rendering shows; anything else in them is not read. */
const RoomDataSchema = z.object({
  terms: TermsSchema.optional(),
  expires: MillisSchema.optional(),
  offer: EntryHashSchema.optional(),
  grant: EntryHashSchema.optional(),
});

/** What a room kind's line is made of: the projected entry's parsed room fields and raw data, its terms in words, the offer it names by short hash. */
interface LineParts {
  readonly room: z.infer<typeof RoomDataSchema>;
  readonly data: Record<string, unknown>;
  readonly terms: string | undefined;
  readonly offer: string;
}

/** How a kind's derived verb and tool are described: the `trestle room <kind>` summary, the `trestle_room_<kind>` tool's title and description. */
export interface RoomWriteWords {
  readonly summary: string;
  readonly title: string;
  readonly description: string;
}

/**
 * A room kind's words: `line`, after its kind on a projected entry's line (with a leading space;
 * "" for none); `commits`, what a write of it commits to; and for a kind whose write takes only
 * common fields (CommonKind), `write`, the words of its derived verb and tool.
 */
type RoomKindText<K extends RoomKind> = {
  line(p: LineParts): string;
  commits(w: RoomSubmissionOf<K>, named: Named): string;
} & (K extends CommonKind ? { readonly write: RoomWriteWords } : unknown);

const oneLine = (value: unknown): string => safeLine(String(value), 1000);
const answerLine = (p: LineParts): string => ` offer ${p.offer}`;
const answerCommits = (w: { offer: string }, named: Named): string => answered(named, w.offer);

/** Every room kind's words, by kind (docs/ROOMS.md "Adding a room kind"). */
const ROOM_TEXT: { [K in RoomKind]: RoomKindText<K> } = {
  offer: {
    write: {
      summary: "offer terms in a room (bound if another party accepts)",
      title: "Make an offer in the room",
      description:
        "Put terms on the table: an amount (integer minor units) with its currency, and/or text. Your owner is bound if another party accepts while it is live. Your owner's mandate is checked first (cap, floor, currency, never_disclose); it may hold the offer for their approval.",
    },
    line: (p) => (p.terms ? ` ${p.terms}` : ""),
    commits: (w, named) => offerTermsText({ terms: opened(named, w.seat, w.terms), expires: w.expires ?? null }),
  },
  counter: {
    write: {
      summary: "answer another party's live offer with your terms",
      title: "Counter another party's offer",
      description:
        "Answer another party's live offer with your own terms; their offer ends and yours is live. Checked against your owner's mandate first.",
    },
    line: (p) => (p.terms ? ` ${p.terms} (countering ${p.offer})` : ` (countering ${p.offer})`),
    commits: (w, named) =>
      `${offerTermsText({ terms: opened(named, w.seat, w.terms), expires: w.expires ?? null })}; answers ${answered(named, w.offer)}`,
  },
  accept: {
    write: {
      summary: "accept another party's live offer (on exactly its terms)",
      title: "Accept another party's offer",
      description:
        "Accept another party's live offer on exactly its terms (you do not restate them; your owner's mandate judges the offer's amount). This commits your owner; their mandate may hold it for their approval.",
    },
    line: answerLine,
    commits: answerCommits,
  },
  reject: {
    write: {
      summary: "turn down another party's live offer",
      title: "Reject another party's offer",
      description: "Turn down another party's live offer; it ends.",
    },
    line: answerLine,
    commits: answerCommits,
  },
  withdraw: {
    write: {
      summary: "take back your own live offer",
      title: "Withdraw your own offer",
      description: "Take back your own live offer (only its author can).",
    },
    line: answerLine,
    commits: answerCommits,
  },
  grant: {
    line: ({ data }) =>
      ` ${oneLine(data.scope)} to ${oneLine(data.grantee)}, ${typeof data.expires === "number" ? expiryText(data.expires) : "?"}`,
    commits: (w) => `${safeLine(w.scope, 64)} to ${safeLine(w.grantee, 64)}, ${expiryText(w.expires)}`,
  },
  revoke: {
    write: {
      summary: "end your own live grant",
      title: "Revoke your own grant",
      description: "End a live grant you made (only the grantor can).",
    },
    line: ({ room }) => ` grant ${room.grant === undefined ? "?" : shortHash(room.grant)}`,
    commits: (w, named) => {
      const grant = named.grant(w.grant);
      return grant
        ? `grant #${grant.seq}: ${safeLine(grant.scope, 64)} to ${safeLine(grant.grantee, 64)}`
        : `a grant this view cannot see (${shortHash(w.grant)})`;
    },
  },
  close: {
    line: ({ room, data, offer }) =>
      room.offer === undefined ? ` ${oneLine(data.outcome)}` : ` ${oneLine(data.outcome)} on offer ${offer}`,
    commits: (w, named) => {
      if (w.outcome === "no_deal") return "no deal";
      return w.offer !== undefined
        ? `a deal on ${answered(named, w.offer)}`
        : w.auction !== undefined
          ? `a deal in ${auctionName(named, w.auction, true)}`
          : "a deal";
    },
  },
  deal_sign: {
    line: (p) => ` the deal on offer ${p.offer}, signed by its owner`,
    commits: (w, named) => `the owner's signature of the deal on ${answered(named, w.offer)}`,
  },
  mechanism: { line: () => "", commits: (w, named) => mechanismText(w, named) },
};

function textOf<K extends RoomKind>(kind: K): RoomKindText<K> {
  return ROOM_TEXT[kind];
}

/** The words of common kind `kind`'s derived verb and tool (src/cli/commands/room-write.ts, src/mcp/tools/room-write.ts). */
export function roomWriteWords(kind: CommonKind): RoomWriteWords {
  return ROOM_TEXT[kind].write;
}

/** What a room entry says besides its body, as text after its kind on its line (format.ts); "" for other kinds. */
export function roomText(e: ProjectedEntry): string {
  if (!isRoomKind(e.kind)) return "";
  const data = e.data ?? {};
  const parsed = RoomDataSchema.safeParse(data);
  const room = parsed.success ? parsed.data : {};
  const terms = room.terms && offerTermsText({ terms: room.terms, expires: room.expires ?? null });
  return textOf(e.kind).line({ room, data, terms, offer: room.offer === undefined ? "?" : shortHash(room.offer) });
}

/**
 * What room write `w` (a submission, or an entry: a submission with the relay's fields) commits
 * to, in words after its kind; null for a kind that is not a room's. `named` holds the verified
 * state the offers, auctions and grants it names are read from.
 */
export function commitmentText(w: Submission, named: Named): string | null {
  if (!isRoomKind(w.kind)) return null;
  return textOf(w.kind).commits(w as RoomSubmissionOf<typeof w.kind>, named);
}

/** A sealed-bid auction entry in words: what opens, the bid a commitment hides (where this machine knows it), the bid a reveal shows. */
function mechanismText(w: Extract<Submission, { kind: "mechanism" }>, named: Named): string {
  switch (w.op) {
    case "open":
      return `opens a sealed-bid auction: ${safeLine(w.sides.buyer, 64)} buys from ${safeLine(w.sides.seller, 64)} in ${w.currency}, k ${w.k.num}/${w.k.den}, bids until ${new Date(w.deadline).toISOString()}, reveals until ${new Date(w.reveal_deadline).toISOString()}`;
    case "commit": {
      const bid = named.bid(w.commitment);
      const what = bid
        ? `a sealed bid of ${moneyText(bid.amount, bid.currency)}`
        : "a sealed bid (its amount is not on this machine)";
      return `commits ${what} as the ${w.side} in ${auctionName(named, w.auction)}; the room sees only its hash until it is revealed`;
    }
    case "reveal": {
      const auction = named.auction(w.auction);
      const bid = auction ? moneyText(w.bid, auction.currency) : `${w.bid} minor units`;
      return `reveals a bid of ${bid} in ${auctionName(named, w.auction)}`;
    }
  }
}

/** `w` as one line a person approves: its kind, then what it commits to (`accept offer #12 by bob: 2,800.00 TWD …`). */
export function commitmentLine(w: Submission, named: Named): string {
  const text = commitmentText(w, named);
  return text === null || text === "" ? w.kind : `${w.kind} ${text}`;
}

/**
 * A message held for its owner's approval, as the lines they approve it by: what it commits to (a
 * room kind), or its kind with its fields as safe JSON (any other kind the mandate holds), then its
 * message text quoted, when it has one.
 */
export function heldLines(s: Submission, named: Named): string[] {
  const { table: _table, seat: _seat, nonce: _nonce, kind, body, ...fields } = s;
  const first =
    commitmentText(s, named) !== null
      ? commitmentLine(s, named)
      : Object.keys(fields).length === 0
        ? kind
        : `${kind} ${safeJson(fields)}`;
  return body === "" ? [first] : [first, `message ${quotedText(body)}`];
}
