/**
 * The room kind registry (docs/SPEC.md §5.10): every room kind's policy by kind, the calls admit
 * and the fold make, and what a write of each kind commits its owner to (the owner-side guards
 * read it). A new kind is one module in this folder, its schema in schemas/room.ts and one line
 * here (docs/ROOMS.md "Adding a room kind").
 */
import { leafOf } from "../../ledger/chain.js";
import type { AuthoredDraft, Submission, SystemDraftOf, UnchainedEntry } from "../../schemas/entry.js";
import { RoomKindSchema, type RoomKind, type Terms } from "../../schemas/room.js";
import { requireRoom } from "../room-live.js";
import type { TableState } from "../state.js";
import { acceptPolicy } from "./accept.js";
import { closePolicy } from "./close.js";
import { counterPolicy } from "./counter.js";
import { dealSignPolicy } from "./deal-sign.js";
import { grantPolicy } from "./grant.js";
import type { KindNews, RoomDraftOf, RoomEntryOf, RoomKindPolicy, RoomSubmissionOf } from "./kind-policy.js";
import { offerPolicy } from "./offer.js";
import { rejectPolicy } from "./reject.js";
import { revokePolicy } from "./revoke.js";
import { withdrawPolicy } from "./withdraw.js";
import { mechanismPolicy } from "./mechanism.js";

const POLICIES: { [K in RoomKind]: RoomKindPolicy<K> } = {
  offer: offerPolicy,
  counter: counterPolicy,
  accept: acceptPolicy,
  reject: rejectPolicy,
  withdraw: withdrawPolicy,
  grant: grantPolicy,
  revoke: revokePolicy,
  close: closePolicy,
  deal_sign: dealSignPolicy,
  mechanism: mechanismPolicy,
};

/** The room kinds as a set: admit asks of every entry, and a failed zod parse for each non-room kind cost the policy replay ~5%. */
const ROOM_KINDS: ReadonlySet<string> = new Set(RoomKindSchema.options);

/** Whether `kind` is a room kind (one of RoomKindSchema's). */
export function isRoomKind(kind: string): kind is RoomKind {
  return ROOM_KINDS.has(kind);
}

function policyOf<K extends RoomKind>(kind: K): RoomKindPolicy<K> {
  return POLICIES[kind];
}

/** Throws the refusal for a room kind draft at `now` (E_NOT_ALLOWED outside a room); other kinds pass. */
export function checkRoomKind(state: TableState, draft: AuthoredDraft, now: number): void {
  if (!isRoomKind(draft.kind)) return;
  const room = requireRoom(state, `a ${draft.kind}`);
  policyOf(draft.kind).check(state, room, draft as RoomDraftOf<typeof draft.kind>, now);
}

/** Folds an admitted room kind entry into the room state; other entries are left alone. */
export function applyRoomKind(state: TableState, entry: UnchainedEntry): void {
  if (entry.kind === "system" || entry.kind === "approval" || !isRoomKind(entry.kind) || !state.room) return;
  policyOf(entry.kind).apply(state, state.room, entry as RoomEntryOf<typeof entry.kind>, leafOf(entry));
}

/** Whether a room kind draft may land after the table closed (a deal's signature after the close with that deal); other drafts may not. */
export function roomKindAfterClose(state: TableState, draft: AuthoredDraft): boolean {
  if (!isRoomKind(draft.kind)) return false;
  return policyOf(draft.kind).signsAfterClose?.(state, draft as RoomDraftOf<typeof draft.kind>) ?? false;
}

/** The table_closed a room kind entry causes (a close), if any. */
export function roomKindCloses(state: TableState, entry: UnchainedEntry): SystemDraftOf<"table_closed"> | null {
  if (entry.kind === "system" || entry.kind === "approval" || !isRoomKind(entry.kind)) return null;
  return policyOf(entry.kind).closes?.(state, entry as RoomEntryOf<typeof entry.kind>) ?? null;
}

/** The news a room kind entry is for its owners' chat apps (judged on the state after its batch), if any. */
export function roomKindNews(state: TableState, entry: UnchainedEntry): KindNews | null {
  if (entry.kind === "system" || entry.kind === "approval" || !isRoomKind(entry.kind) || !state.room) return null;
  return policyOf(entry.kind).news?.(state, state.room, entry as RoomEntryOf<typeof entry.kind>) ?? null;
}

/** The auction settlement a room kind entry causes (a deciding reveal), if any. */
export function roomKindSettles(state: TableState, entry: UnchainedEntry): SystemDraftOf<"auction_settled"> | null {
  if (entry.kind === "system" || entry.kind === "approval" || !isRoomKind(entry.kind)) return null;
  return policyOf(entry.kind).causes?.(state, entry as RoomEntryOf<typeof entry.kind>) ?? null;
}

/** What one write commits its owner to (RoomKindCommitment applied to it). */
export interface RoomCommitment {
  readonly commits: boolean;
  readonly gatedWhenLoosened: boolean;
  readonly binds: { terms: Terms } | { offer: string } | null;
  readonly expires: number | undefined;
  readonly answers: string | undefined;
  readonly deal: string | null | undefined;
}

const NOT_A_ROOM_WRITE: RoomCommitment = {
  commits: false,
  gatedWhenLoosened: false,
  binds: null,
  expires: undefined,
  answers: undefined,
  deal: undefined,
};

/** What writing `s` commits its owner to, by its kind's module; a kind that is not a room's commits nothing. */
export function roomCommitment(s: Submission): RoomCommitment {
  if (!isRoomKind(s.kind)) return NOT_A_ROOM_WRITE;
  const facts = policyOf(s.kind).commitment;
  const w = s as RoomSubmissionOf<typeof s.kind>;
  return {
    commits: facts.commits(w),
    gatedWhenLoosened: facts.gatedWhenLoosened(w),
    binds: facts.binds(w),
    expires: facts.expires(w),
    answers: facts.answers(w),
    deal: facts.deal(w),
  };
}
