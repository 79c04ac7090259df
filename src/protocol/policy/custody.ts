/**
 * Judging and folding a custody entry (docs/SPEC.md §8.4, decision 0290): a table passes from the
 * relay that holds it to another only with the signatures of more than half of its owners (the
 * config's owners and a room's parties not ejected) over the exact chain it ends, the past relay's
 * signed head over that chain's last entry, and the new relay's own signature. The fold moves
 * `state.relay` to the new relay; nothing else changes.
 */
import { TrestleError } from "../errors.js";
import { own } from "../encoding/records.js";
import type { SystemDraftOf, SystemEntryOf, UnchainedEntry } from "../schemas/entry.js";
import { ownerEntries } from "./owners.js";
import type { TableState } from "./state.js";

/** The owners whose signatures count for a custody change: every owner's name and key, a room's ejected parties left out. */
export function custodyElectorate(state: TableState): [string, string][] {
  return ownerEntries(state).filter(
    ([name]) => (state.room ? (own(state.room.parties, name)?.ejected ?? null) : null) === null,
  );
}

/** How many of the electorate must sign: more than half. */
export function custodyNeeded(state: TableState): number {
  return Math.floor(custodyElectorate(state).length / 2) + 1;
}

/** Throws the refusal for a custody draft, or returns when the policy accepts it. */
export function checkCustody(state: TableState, draft: SystemDraftOf<"custody">): void {
  const { from, to, head, owners } = draft.data;
  if (state.config.parent !== undefined) {
    throw new TrestleError("E_NOT_ALLOWED", "a sub-table stays on its parent's relay: it reports its result there");
  }
  if (from !== state.relay)
    throw new TrestleError(
      "E_NOT_ALLOWED",
      `custody passes from the relay holding the table (${state.relay}), not ${from}`,
    );
  if (to === from) throw new TrestleError("E_NOT_ALLOWED", "custody passes to another relay key");
  if (draft.author.key !== to)
    throw new TrestleError("E_BAD_SIGNATURE", "a custody entry is signed by the relay taking custody");
  if (head.table !== state.table || head.relay !== from || head.seq !== state.seq) {
    throw new TrestleError(
      "E_NOT_ALLOWED",
      `the past relay's head must be its own, over entry ${state.seq} of this table`,
    );
  }
  const electorate = new Map(custodyElectorate(state));
  const seen = new Set<string>();
  for (const { owner, key } of owners) {
    if (seen.has(owner)) throw new TrestleError("E_SCHEMA", `owner ${owner} signs a custody change once`);
    seen.add(owner);
    const listed = electorate.get(owner);
    if (listed === undefined) throw new TrestleError("E_NOT_OWNER", `"${owner}" is not an owner of this table`);
    if (key !== listed)
      throw new TrestleError("E_BAD_SIGNATURE", `not signed by the key the table lists for owner ${owner}`);
  }
  const needed = Math.floor(electorate.size / 2) + 1;
  if (seen.size < needed) {
    throw new TrestleError(
      "E_FORBIDDEN",
      `a custody change needs the signatures of ${needed} of the table's ${electorate.size} owners; it has ${seen.size}`,
      {
        needed,
        signed: [...seen],
        owners: [...electorate.keys()],
      },
    );
  }
}

/** Whether a draft is a custody change (admitted after the table closed too: task work outlives it, §5.6). */
export function isCustodyDraft(draft: { kind: string; subkind?: string }): boolean {
  return draft.kind === "system" && draft.subkind === "custody";
}

/** Folds a custody entry: the new relay holds the table from this entry on. */
export function applyCustody(
  state: TableState,
  entry: Extract<UnchainedEntry, { subkind: "custody" }> | SystemEntryOf<"custody">,
): void {
  state.relay = entry.data.to;
  state.custody = entry.seq;
}
