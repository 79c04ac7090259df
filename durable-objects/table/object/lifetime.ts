/**
 * A table's end on this relay (docs/SPEC.md §6.6, decision 0261): the creator's signed delete and
 * the operator's lifetimes (`table_ttl_ms`, `closed_table_ttl_ms`, run by the table's alarm), both
 * ending in the tombstone (tombstone.ts).
 */
import { canonicalize } from "../../../src/protocol/encoding/canonical.js";
import { verifyStatement } from "../../../src/protocol/signing/crypto.js";
import { parseOrThrow, TrestleError } from "../../../src/protocol/errors.js";
import { LIMITS } from "../../../src/protocol/limits/limits.js";
import type { OperatorLimits } from "../../../src/protocol/limits/operator-limits.js";
import type { TableState } from "../../../src/protocol/policy/state.js";
import { own } from "../../../src/protocol/encoding/records.js";
import { DeleteRequestSchema, type Tombstone } from "../../../src/protocol/schemas/lifetime.js";
import type { Ledger } from "../storage/ledger.js";
import { ownerCounters } from "../../stubs.js";
import { closeOverLimit } from "../../limits/refuse-socket.js";
import { unwrap } from "../../result.js";
import type { TableContext } from "../context.js";
import { bury, deletedError, repeatedDelete, type Burial } from "../storage/tombstone.js";

/**
 * Deletes the table `t` holds: its creator's key stops counting it (first, since a failure there
 * must leave the table whole), then storage goes and the tombstone stays, then every socket is told
 * (E_TABLE_DELETED) and closed with 4410. A delete that raced this one and won decides the answer.
 */
export async function buryTable(t: TableContext, tombstone: Tombstone, request: string | null): Promise<Tombstone> {
  const state = t.state;
  if (!state) throw new TrestleError("E_TABLE_NOT_FOUND");
  const creator = state.config.parent === undefined ? state.config.owners[state.creator]?.public_key : undefined;
  if (creator) unwrap(await ownerCounters(t.env, creator).releaseTable(state.table));
  if (t.burial) return repeatedDelete(t.burial, request);
  const burial: Burial = { tombstone, request };
  t.forget(burial);
  await bury(t.storage, burial);
  for (const ws of t.sockets()) closeOverLimit(ws, deletedError(tombstone));
  return tombstone;
}

/** Counts a new table against its creator's key (counters/counters.ts); resolves with what undoes that count when the creation then fails. */
export async function claimCreation(
  t: Pick<TableContext, "env" | "state">,
  draft: { table: string; author: { key: string } },
): Promise<() => Promise<void>> {
  const counters = ownerCounters(t.env, draft.author.key);
  const { counted } = unwrap(await counters.claimTable(draft.table));
  return async () => {
    const state = t.state;
    const createdByThisKey = state !== null && state.config.owners[state.creator]?.public_key === draft.author.key;
    if (counted && !createdByThisKey) unwrap(await counters.releaseTable(draft.table));
  };
}

/** The canonical text of a delete request body, or null when it has no canonical form. */
export function canonicalRequest(body: unknown): string | null {
  try {
    return canonicalize(body);
  } catch {
    return null;
  }
}

/**
 * The owner a delete request speaks for, once checked: for this table, by its creator (a sub-table,
 * opened by a seat, has none and is never deleted by a signature), within the auth window of `now`,
 * and signed with purpose `owner` by the creator's key from the config.
 */
export async function verifiedDelete(state: TableState, body: unknown, now: number): Promise<string> {
  const { delete: statement, sig } = parseOrThrow(DeleteRequestSchema, body, "delete request");
  if (statement.table !== state.table)
    throw new TrestleError("E_WRONG_TABLE", `the delete is for table "${statement.table}"`);
  const listed = own(state.config.owners, statement.owner);
  if (!listed) throw new TrestleError("E_NOT_OWNER", `"${statement.owner}" is not an owner of this table`);
  if (state.config.parent !== undefined)
    throw new TrestleError(
      "E_FORBIDDEN",
      "a sub-table is not deleted by a signature; it ends with the relay's lifetimes",
    );
  if (statement.owner !== state.creator)
    throw new TrestleError("E_FORBIDDEN", `only the table's creator (${state.creator}) may delete it`);
  if (Math.abs(now - statement.ts) > LIMITS.auth_window_ms)
    throw new TrestleError("E_EXPIRED", "the delete's time is outside the window; check your clock");
  if (!(await verifyStatement(listed.public_key, "owner", statement, sig)))
    throw new TrestleError("E_BAD_SIGNATURE", "the delete is not signed by the creator's key");
  return statement.owner;
}

/** When the operator's lifetimes delete a table: the earliest of opened + table_ttl_ms and closed + closed_table_ttl_ms (0: never). */
export class Expiry {
  private opened: number | undefined;
  private closed: { seq: number; ts: number } | undefined;

  constructor(private readonly ledger: () => Pick<Ledger, "range">) {}

  /** The deadline for `state` under `limits`, or null; reads at most two entries' times once per wake. */
  at(state: TableState | null, limits: OperatorLimits): number | null {
    if (!state) return null;
    const deadlines: number[] = [];
    if (limits.table_ttl_ms > 0) {
      this.opened ??= this.timeOf(1);
      deadlines.push(this.opened + limits.table_ttl_ms);
    }
    if (limits.closed_table_ttl_ms > 0 && state.closed) {
      if (this.closed?.seq !== state.closed.seq)
        this.closed = { seq: state.closed.seq, ts: this.timeOf(state.closed.seq) };
      deadlines.push(this.closed.ts + limits.closed_table_ttl_ms);
    }
    return deadlines.length > 0 ? Math.min(...deadlines) : null;
  }

  private timeOf(seq: number): number {
    return this.ledger().range(seq, seq, 1)[0]?.ts ?? 0;
  }
}
