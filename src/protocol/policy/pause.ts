/**
 * Pausing and resuming a table (docs/SPEC.md §5.5). An owner who holds a present seat may pause
 * or resume, by their own signature (`via: "owner"`) or through a bound chat app (relay-attested,
 * `author: null`). While paused every authored write is refused with E_PAUSED; joins still land.
 * Pure: `checkControl` judges, `applyControl` folds, `controlStatement` rebuilds what was signed.
 */
import { TrestleError } from "../errors.js";
import { ownerEntries, ownerKeyOf } from "./owners.js";
import type { ControlAction, ControlStatement, ControlVia } from "../schemas/control.js";
import type { SystemDraftOf, SystemEntryOf } from "../schemas/entry.js";
import { presentSeats, type TableState } from "./state.js";

/** A pause or resume entry (draft or appended). */
export type ControlDraft = SystemDraftOf<"table_paused"> | SystemDraftOf<"table_resumed">;

/** The action a control entry records. */
export function actionOf(entry: Pick<ControlDraft, "subkind">): ControlAction {
  return entry.subkind === "table_paused" ? "pause" : "resume";
}

/** The statement an owner-signed control records (purpose `owner`). */
export function controlStatement(entry: Pick<ControlDraft, "table" | "subkind" | "data">): ControlStatement {
  return { scope: "table_control", table: entry.table, owner: entry.data.owner, action: actionOf(entry), nonce: entry.data.nonce };
}

/** The ledger's nonce index key for a control: one nonce per owner per table. */
export function controlNonceKey(entry: Pick<ControlDraft, "data">): string {
  return `control:${entry.data.owner}:${entry.data.nonce}`;
}

/** The draft for a control by `owner`; `sig` present means owner-signed (`via` must be "owner"). */
export function controlDraft(
  state: TableState,
  fields: { owner: string; action: ControlAction; via: ControlVia; nonce: string; sig?: string },
): ControlDraft {
  const key = ownerKeyOf(state, fields.owner);
  if (key === undefined) throw new TrestleError("E_NOT_OWNER", `"${fields.owner}" is not an owner of this table`);
  const author = fields.sig === undefined ? null : { key, sig: fields.sig };
  const base = { table: state.table, seat: null, kind: "system" as const, author };
  const data = { owner: fields.owner, via: fields.via, nonce: fields.nonce };
  return fields.action === "pause" ? { ...base, subkind: "table_paused", data } : { ...base, subkind: "table_resumed", data };
}

/** The owner name whose public key is `key` and who holds a present seat here, or undefined. */
export function seatedOwnerByKey(state: TableState, key: string): string | undefined {
  const seated = new Set(presentSeats(state).map((s) => s.owner));
  return ownerEntries(state).find(([name, k]) => k === key && seated.has(name))?.[0];
}

/** Throws the refusal for a control draft, or returns when the policy accepts it. */
export function checkControl(state: TableState, draft: ControlDraft): void {
  const { owner, via } = draft.data;
  const listed = ownerKeyOf(state, owner);
  if (listed === undefined) throw new TrestleError("E_NOT_OWNER", `"${owner}" is not an owner of this table`);
  if (draft.author === null ? via === "owner" : via !== "owner") {
    throw new TrestleError("E_SCHEMA", "a control is owner-signed exactly when via is \"owner\"");
  }
  if (draft.author !== null && draft.author.key !== listed) {
    throw new TrestleError("E_BAD_SIGNATURE", "the control is not signed by that owner's key");
  }
  if (!presentSeats(state).some((s) => s.owner === owner)) {
    throw new TrestleError("E_FORBIDDEN", `${owner} holds no seat at this table, so cannot pause or resume it`);
  }
  const pausing = draft.subkind === "table_paused";
  if (pausing && state.paused) throw new TrestleError("E_NOT_ALLOWED", `the table is already paused (entry ${state.paused.seq})`);
  if (!pausing && !state.paused) throw new TrestleError("E_NOT_ALLOWED", "the table is not paused");
}

/** Refuses what `seat` writes while the table is paused: every authored entry, and opening a sub-table. */
export function checkNotPaused(state: TableState, seat: string): void {
  if (state.paused) {
    throw new TrestleError("E_PAUSED", `${state.paused.owner} paused the table at entry ${state.paused.seq} (via ${state.paused.via})`, {
      paused_at: state.paused.seq,
      seat,
    });
  }
}

/** Folds a control entry into the state (mutates it). */
export function applyControl(state: TableState, entry: SystemEntryOf<"table_paused"> | SystemEntryOf<"table_resumed"> | (ControlDraft & { seq: number })): void {
  state.paused = entry.subkind === "table_paused" ? { seq: entry.seq, owner: entry.data.owner, via: entry.data.via } : null;
}
