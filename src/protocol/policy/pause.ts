/**
 * Pauses, one per owner (docs/SPEC.md §5.5). An owner who holds a present seat may put their own
 * pause on the table, by their own signature (`via: "owner"`) or through a bound chat app
 * (relay-attested, `author: null`); only that owner lifts it, a signed pause only by a signed
 * resume, and lifting needs no seat. While any pause holds every authored write is refused with
 * E_PAUSED naming every holder; joins still land.
 * Pure: `checkControl` judges, `foldControl` folds, `controlStatement` rebuilds what was signed.
 */
import { TrestleError } from "../errors.js";
import { has, own } from "../encoding/records.js";
import { ownerEntries, ownerKeyOf } from "./owners.js";
import type { ControlAction, ControlStatement, ControlVia, PauseHolder } from "../schemas/control.js";
import type { SystemDraftOf } from "../schemas/entry.js";
import { presentSeats, type PauseState, type TableState } from "./state.js";

/** A pause or resume entry (draft or appended). */
export type ControlDraft = SystemDraftOf<"table_paused"> | SystemDraftOf<"table_resumed">;

/** The action a control entry records. */
export function actionOf(entry: Pick<ControlDraft, "subkind">): ControlAction {
  return entry.subkind === "table_paused" ? "pause" : "resume";
}

/** The statement an owner-signed control records (purpose `owner`). */
export function controlStatement(entry: Pick<ControlDraft, "table" | "subkind" | "data">): ControlStatement {
  return {
    scope: "table_control",
    table: entry.table,
    owner: entry.data.owner,
    action: actionOf(entry),
    nonce: entry.data.nonce,
  };
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
  return fields.action === "pause"
    ? { ...base, subkind: "table_paused", data }
    : { ...base, subkind: "table_resumed", data };
}

/**
 * The owner a chat command from an account bound to `key` acts as: for a pause, an owner with that
 * key who holds a present seat; for a resume, one who holds a pause (else any owner with that key,
 * so the policy's refusal says who does). Undefined when no owner fits.
 */
export function controlOwnerByKey(state: TableState, key: string, action: ControlAction): string | undefined {
  const names = ownerEntries(state).flatMap(([name, k]) => (k === key ? [name] : []));
  if (action === "resume") return names.find((name) => has(state.pauses, name)) ?? names[0];
  const seated = new Set(presentSeats(state).map((s) => s.owner));
  return names.find((name) => seated.has(name));
}

/** Every pause in force, oldest first. */
export function pauseHolders(pauses: Readonly<Record<string, PauseState>>): PauseHolder[] {
  return Object.entries(pauses)
    .map(([owner, p]) => ({ owner, via: p.via, seq: p.seq }))
    .sort((a, b) => a.seq - b.seq);
}

/** Whether any owner's pause holds: the table then takes no authored write. */
export function isPaused(state: Pick<TableState, "pauses">): boolean {
  return Object.keys(state.pauses).length > 0;
}

/** How a pause was made, in words: "owner key" for a signed one, else the chat app. */
export function viaText(via: ControlVia): string {
  return via === "owner" ? "owner key" : via;
}

/** The holders in words, e.g. "alice (owner key, entry 5), bob (telegram, entry 7)". */
export function holdersText(holders: readonly PauseHolder[]): string {
  return holders.map((p) => `${p.owner} (${viaText(p.via)}, entry ${p.seq})`).join(", ");
}

/** Throws the refusal for a control draft, or returns when the policy accepts it. */
export function checkControl(state: TableState, draft: ControlDraft): void {
  const { owner, via } = draft.data;
  const listed = ownerKeyOf(state, owner);
  if (listed === undefined) throw new TrestleError("E_NOT_OWNER", `"${owner}" is not an owner of this table`);
  if (draft.author === null ? via === "owner" : via !== "owner") {
    throw new TrestleError("E_SCHEMA", 'a control is owner-signed exactly when via is "owner"');
  }
  if (draft.author !== null && draft.author.key !== listed) {
    throw new TrestleError("E_BAD_SIGNATURE", "the control is not signed by that owner's key");
  }
  if (draft.subkind === "table_paused") checkPause(state, owner);
  else checkResume(state, owner, draft.author !== null);
}

/** A pause needs a present seat of its owner, and that owner holding no pause yet. */
function checkPause(state: TableState, owner: string): void {
  if (!presentSeats(state).some((s) => s.owner === owner)) {
    throw new TrestleError("E_FORBIDDEN", `${owner} holds no seat at this table, so cannot pause it`);
  }
  const held = own(state.pauses, owner);
  if (held)
    throw new TrestleError(
      "E_NOT_ALLOWED",
      `${owner} already holds a pause here (entry ${held.seq}); an owner holds at most one`,
      { pauses: pauseHolders(state.pauses) },
    );
}

/** A resume lifts its owner's own pause only (no seat needed); a pause signed with the owner key, only by a signed resume. */
function checkResume(state: TableState, owner: string, signed: boolean): void {
  const held = own(state.pauses, owner);
  if (!held) {
    const holders = pauseHolders(state.pauses);
    if (holders.length === 0) throw new TrestleError("E_NOT_ALLOWED", "the table is not paused");
    throw new TrestleError(
      "E_FORBIDDEN",
      `${owner} holds no pause here, and only its holder lifts a pause: the table is paused by ${holdersText(holders)}`,
      { pauses: holders },
    );
  }
  if (held.via === "owner" && !signed) {
    throw new TrestleError(
      "E_NEEDS_SIGNATURE",
      `${owner}'s pause (entry ${held.seq}) was signed with the owner key: only ${owner}'s own signed resume lifts it, not a chat command`,
      {
        owner,
        paused_at: held.seq,
      },
    );
  }
}

/** Refuses what `seat` writes while any pause holds: every authored entry, and opening a sub-table. */
export function checkNotPaused(state: TableState, seat: string): void {
  if (!isPaused(state)) return;
  const holders = pauseHolders(state.pauses);
  throw new TrestleError(
    "E_PAUSED",
    `the table is paused by ${holdersText(holders)}; it takes writes again once each of them lifts their own pause`,
    {
      pauses: holders,
      seat,
    },
  );
}

/** Folds a control entry into a record of pauses by owner (mutates it): a pause sets its owner's, a resume clears it. */
export function foldControl(
  pauses: Record<string, PauseState>,
  entry: Pick<ControlDraft, "subkind" | "data"> & { seq: number },
): void {
  const { owner, via } = entry.data;
  if (entry.subkind === "table_resumed") delete pauses[owner];
  else pauses[owner] = { seq: entry.seq, via };
}
