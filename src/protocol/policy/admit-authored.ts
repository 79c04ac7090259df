/**
 * Judging a seat's authored entry against the state (docs/SPEC.md §5): seat and key, addressing,
 * body size against the floor's character budget, floor holder, raised hands, who may decide.
 */
import { TrestleError } from "../errors.js";
import { LIMITS } from "../limits/limits.js";
import type { TableConfig } from "../schemas/config.js";
import type { AuthoredDraft } from "../schemas/entry.js";
import { TURN_KINDS } from "./floor.js";
import type { TableState } from "./state.js";
import { topologyOf } from "./topology.js";
import { has, own } from "../encoding/records.js";
import { checkVote } from "./votes.js";

/** The floor's per-entry character budget for a config. */
export function maxChars(config: TableConfig): number {
  return config.floor?.max_chars ?? LIMITS.max_chars_default;
}

/** Throws the refusal for an authored draft, or returns normally when the policy accepts it. */
export function checkAuthored(state: TableState, draft: AuthoredDraft): void {
  const seat = own(state.seats, draft.seat);
  if (!seat || seat.left !== null) {
    throw new TrestleError("E_UNKNOWN_SEAT", `seat "${draft.seat}" is not at this table`);
  }
  if (draft.author.key !== seat.key) throw new TrestleError("E_BAD_SIGNATURE", "not signed by the seat's key");
  checkAddressing(state, draft);
  checkBody(state, draft);
  topologyOf(state.config.topology).checkAddressing(state, {
    seat: draft.seat,
    kind: draft.kind,
    to: addressees(draft),
  });
  if (draft.kind === "raise_hand") return checkRaiseHand(state, draft.seat);
  if (draft.kind === "vote") return checkVote(state, draft);
  if (draft.kind === "decision") checkDecider(state, draft.seat);
  checkFloor(state, draft.seat, draft.kind, seat.human);
}

function checkAddressing(state: TableState, draft: AuthoredDraft): void {
  const to = addressees(draft);
  const unknown = to?.find((s) => !has(state.seats, s));
  if (unknown !== undefined) throw new TrestleError("E_UNKNOWN_SEAT", `"to" names unknown seat "${unknown}"`);
  const re =
    draft.kind === "say" || draft.kind === "proposal" || draft.kind === "decision" || draft.kind === "vote"
      ? draft.re
      : undefined;
  if (re !== undefined && re > state.seq) {
    throw new TrestleError("E_NOT_ALLOWED", `"re" must name an earlier entry (latest is ${state.seq})`);
  }
}

function checkBody(state: TableState, draft: AuthoredDraft): void {
  const max = maxChars(state.config);
  const t = draft.truncated;
  if (!t && draft.body.length > max) {
    throw new TrestleError("E_TOO_LARGE", `body of ${draft.body.length} chars exceeds max_chars ${max}`);
  }
  // A cut body is max chars long, or one less when the cut would split a surrogate pair.
  if (t && (t.chars <= max || draft.body.length > max || draft.body.length < max - 1)) {
    throw new TrestleError("E_TOO_LARGE", "truncation marker does not match the floor's max_chars");
  }
}

function checkRaiseHand(state: TableState, seat: string): void {
  if (!topologyOf(state.config.topology).hasFloor) {
    throw new TrestleError("E_NOT_ALLOWED", "an open table has no floor to ask for");
  }
  if (!state.floor.started) throw new TrestleError("E_NOT_ALLOWED", "the floor has not started yet");
  if (state.floor.holder === seat) throw new TrestleError("E_NOT_ALLOWED", "this seat already holds the floor");
  if (state.floor.hands.includes(seat)) throw new TrestleError("E_NOT_ALLOWED", "this seat's hand is already raised");
}

function checkDecider(state: TableState, seat: string): void {
  const by = state.config.floor?.decision_by ?? defaultDecisionBy(state);
  if (by !== "any" && !by.includes(seat)) {
    throw new TrestleError("E_FORBIDDEN", `only ${by.join(", ")} may decide at this table`, { decision_by: by });
  }
}

/** Who decides when the config does not say: the topology's default (the judge of a debate, the hub, the lead, ...). */
function defaultDecisionBy(state: TableState): "any" | string[] {
  const deciders = topologyOf(state.config.topology).deciders;
  return deciders === "any" ? "any" : [...deciders];
}

/** The seats an authored draft addresses (`to`), if its kind carries addressing. */
export function addressees(draft: AuthoredDraft): readonly string[] | undefined {
  return draft.kind === "say" || draft.kind === "proposal" ? draft.to : undefined;
}

function checkFloor(state: TableState, seat: string, kind: string, human: boolean): void {
  if (!TURN_KINDS.has(kind)) return;
  const { holder, started } = state.floor;
  if (holder === seat) return;
  if (human && kind !== "pass") return;
  const hasFloor = topologyOf(state.config.topology).hasFloor;
  if (!hasFloor && holder === null) return;
  const details = { holder, round: state.floor.round };
  if (hasFloor && !started) {
    const missing = topologyOf(state.config.topology).participants.filter((s) => !has(state.seats, s));
    throw new TrestleError(
      "E_NOT_FLOOR",
      `the floor starts when every seat has joined (waiting for ${missing.join(", ")})`,
      {
        ...details,
        waiting_for: missing,
      },
    );
  }
  throw new TrestleError(
    "E_NOT_FLOOR",
    holder ? `the floor is held by ${holder}` : "nobody holds the floor now",
    details,
  );
}
