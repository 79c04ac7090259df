/**
 * The room kind policy interface (docs/SPEC.md §5.10, decision 0221): one module per room kind in
 * this folder, like the topologies, each judging a draft of its kind and folding an admitted
 * entry into the room's state. registry.ts dispatches; admit.ts and apply.ts call the registry.
 * Also the rules several kinds share: finding an offer by leaf, liveness, who may answer it.
 */
import { TrestleError } from "../../errors.js";
import { own } from "../../encoding/records.js";
import type { AuthoredDraft, Submission, SystemDraftOf, UnchainedEntry } from "../../schemas/entry.js";
import type { RoomNewsKind } from "../../schemas/notify.js";
import type { RoomKind, Terms } from "../../schemas/room.js";
import { offerNotLive } from "../room-live.js";
import type { OfferState, RoomState } from "../room-state.js";
import type { TableState } from "../state.js";

/** A draft of room kind K. */
export type RoomDraftOf<K extends RoomKind> = Extract<AuthoredDraft, { kind: K }>;
/** An admitted entry of room kind K (seq and ts assigned). */
export type RoomEntryOf<K extends RoomKind> = Extract<UnchainedEntry, { kind: K }>;

/** A submission of room kind K, as its seat signs it. */
export type RoomSubmissionOf<K extends RoomKind> = Extract<Submission, { kind: K }>;

/** What a write of one room kind commits its owner to, as the owner-side guards read it (docs/ROOMS.md "Mandates"). */
export interface RoomKindCommitment<K extends RoomKind> {
  /** Whether writing `s` commits the seat's owner to something. */
  commits(s: RoomSubmissionOf<K>): boolean;
  /** Whether `s` needs the owner's approval of its hash while the mandate is loosened. */
  gatedWhenLoosened(s: RoomSubmissionOf<K>): boolean;
  /** The terms `s` binds the owner to: its own, or those of the offer it names (by leaf); null when it names none. */
  binds(s: RoomSubmissionOf<K>): { terms: Terms } | { offer: string } | null;
  /** When `s` itself stops being sendable, if it has an expiry. */
  expires(s: RoomSubmissionOf<K>): number | undefined;
  /** The offer `s` answers, whose expiry also ends a held `s`; undefined when it answers none. */
  answers(s: RoomSubmissionOf<K>): string | undefined;
  /** The leaf of the offer or auction whose deal `s` commits its owner to or signs (null: its own leaf, for an offer or counter); undefined when it is about no deal. */
  deal(s: RoomSubmissionOf<K>): string | null | undefined;
}

/** The commitment facts of a kind that commits nobody, answers nothing and has no expiry of its own. */
export const NO_COMMITMENT = {
  commits: () => false,
  gatedWhenLoosened: () => false,
  binds: () => null,
  expires: () => undefined,
  answers: () => undefined,
  deal: () => undefined,
} as const satisfies RoomKindCommitment<RoomKind>;

/** How one room kind is judged and folded (pure functions of the state), and what a write of it commits. */
export interface RoomKindPolicy<K extends RoomKind> {
  readonly kind: K;
  /** What a write of this kind commits its owner to. */
  readonly commitment: RoomKindCommitment<K>;
  /** Throws the refusal for `draft` at `now`; seat, key, pause and body were already checked. */
  check(state: TableState, room: RoomState, draft: RoomDraftOf<K>, now: number): void;
  /** Folds an admitted entry (whose leaf hash is `leaf`) into `room` (mutates it). */
  apply(state: TableState, room: RoomState, entry: RoomEntryOf<K>, leaf: string): void;
  /** The table_closed the entry causes, if any. */
  closes?(state: TableState, entry: RoomEntryOf<K>): SystemDraftOf<"table_closed"> | null;
  /** The auction settlement the entry causes (judged on the state after it), if any. */
  causes?(state: TableState, entry: RoomEntryOf<K>): SystemDraftOf<"auction_settled"> | null;
  /** Whether `draft` may still land after the table closed (absent: never). */
  signsAfterClose?(state: TableState, draft: RoomDraftOf<K>): boolean;
  /** The news the entry is for its owners' chat apps, judged on the state after its batch (absent: none; docs/CHAT-APPS.md "Room news"). */
  news?(state: TableState, room: RoomState, entry: RoomEntryOf<K>): KindNews | null;
}

/** What a room kind entry tells the owners: the kind of news, the seat it is about, the terms and, for a pending deal, who has not signed. */
export interface KindNews {
  news: RoomNewsKind;
  seat: string;
  terms?: Terms | undefined;
  waiting?: string[];
}

/** The offer or counter whose entry has leaf `leaf`; E_UNKNOWN_OFFER when the room has none. */
export function offerOf(room: RoomState, leaf: string): OfferState {
  const offer = own(room.offers, leaf);
  if (!offer) throw new TrestleError("E_UNKNOWN_OFFER", `no offer ${leaf.slice(0, 16)}… in this room`, { offer: leaf });
  return offer;
}

/** The live offer with leaf `leaf` at `now`; E_UNKNOWN_OFFER or E_NOT_LIVE otherwise. */
export function liveOffer(state: TableState, room: RoomState, leaf: string, now: number): OfferState {
  const offer = offerOf(room, leaf);
  const why = offerNotLive(state, offer, now);
  if (why !== null)
    throw new TrestleError("E_NOT_LIVE", `offer ${leaf.slice(0, 16)}… is not live: ${why}`, {
      offer: leaf,
      status: offer.status,
    });
  return offer;
}

/** The owner of a seated seat (checked by admit before any room kind is judged). */
export function ownerOfSeat(state: TableState, seat: string): string {
  return own(state.seats, seat)?.owner ?? "";
}

/** Throws E_FORBIDDEN when `seat` is of the same owner as the offer: nobody answers its own party's offer. */
export function checkOtherParty(state: TableState, offer: OfferState, seat: string, verb: string): void {
  if (ownerOfSeat(state, seat) === offer.owner) {
    throw new TrestleError(
      "E_FORBIDDEN",
      `${offer.owner}'s seats do not ${verb} ${offer.owner}'s own offer (entry ${offer.seq})`,
    );
  }
}

/** Throws E_EXPIRED for an expiry that is not after `now`. */
export function checkFuture(expires: number | undefined, now: number, what: string): void {
  if (expires !== undefined && expires <= now)
    throw new TrestleError("E_EXPIRED", `the ${what} expires before it is written`);
}

/** A new open offer or counter made by an entry. */
export function openOffer(
  state: TableState,
  entry: { seq: number; seat: string; terms: Terms; expires?: number | undefined },
  kind: OfferState["kind"],
  counters: string | null,
): OfferState {
  const { seq, seat, terms, expires } = entry;
  return {
    seq,
    seat,
    owner: ownerOfSeat(state, seat),
    kind,
    terms,
    expires: expires ?? null,
    counters,
    status: "open",
    ended: null,
    accepted_by: null,
  };
}

/** Ends an offer with `status` at entry `seq` (mutates it). */
export function endOffer(offer: OfferState, status: OfferState["status"], seq: number): void {
  offer.status = status;
  offer.ended = seq;
}
