/**
 * Reporting a closed sub-table to its parent (docs/SPEC.md §5.9), at least once: the child signs
 * the result statement with the relay key (deterministic, so every attempt sends the same bytes)
 * and calls the parent's object, which records it once and answers a repeat with the first seq.
 * Each attempt is recorded before it starts and the table's alarm (alarms.ts) is re-armed for the
 * retry, so a crash or an unreachable parent means a later retry, never a lost or doubled result.
 */
import { signStatement, type Signer } from "../../../src/protocol/signing/crypto.js";
import type { ErrorCode } from "../../../src/protocol/errors.js";
import type { TableState } from "../../../src/protocol/policy/state.js";
import { resultStatement } from "../../../src/protocol/requests/subtables.js";
import type { Result } from "../../result.js";
import type { Ledger } from "../storage/ledger.js";
import type { TableContext } from "../context.js";

const DELIVERY_KEY = "subtable_result_delivery";
const ATTEMPT_KEY = "subtable_result_attempt";
/** Delay before retrying a delivery that did not get a final answer. */
export const RESULT_RETRY_MS = 30_000;
/** Parent answers worth retrying; any other refusal is final. */
const TRANSIENT: ReadonlySet<ErrorCode> = new Set(["E_UNAVAILABLE", "E_INTERNAL", "E_RATE_LIMITED"]);

/** How a delivery ended: recorded at the parent's `delivered` seq, or refused for good with a code. */
export type Delivery = { delivered: number } | { refused: ErrorCode };

/** The parent's RPC surface for results. */
export interface ParentResults {
  reportSubtable(body: unknown): Promise<Result<{ seq: number }>>;
}

/** What delivery reads of the child's context (the context itself; tests hand over a fake of just this). */
export type Deliverer = Pick<TableContext, "state" | "storage" | "now" | "signer" | "reschedule"> & {
  readonly ledger: Pick<Ledger, "linkAt">;
  /** The object of table `id` (the parent). */
  table(id: string): ParentResults;
};

/** The recorded outcome of this table's result delivery, if it ended. */
export function deliveryOf(storage: DurableObjectStorage): Delivery | undefined {
  const row = storage.sql.exec("SELECT value FROM meta WHERE key = ?", DELIVERY_KEY).toArray()[0];
  return row ? (JSON.parse(String(row.value)) as Delivery) : undefined;
}

/** When a pending delivery should next be tried (`now` if never tried), or null when none is pending. */
export function deliveryAt(storage: DurableObjectStorage, state: TableState | null, now: number): number | null {
  if (!state?.closed || !state.config.parent || deliveryOf(storage)) return null;
  const row = storage.sql.exec("SELECT value FROM meta WHERE key = ?", ATTEMPT_KEY).toArray()[0];
  return row ? Number(row.value) + RESULT_RETRY_MS : now;
}

/** Delivers this closed sub-table's result to its parent unless that already ended; safe to call any number of times. */
export async function deliverResult(t: Deliverer): Promise<void> {
  const state = t.state;
  if (!state?.closed || !state.config.parent || deliveryOf(t.storage)) return;
  // Record the attempt and arm the retry before anything can fail, so a crash still means a later attempt.
  t.storage.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", ATTEMPT_KEY, String(t.now()));
  await t.reschedule();
  const statement = resultStatement(state, t.ledger);
  let answer: Result<{ seq: number }>;
  try {
    const sig = await signStatement(await t.signer(), "result", statement);
    answer = await t.table(statement.parent).reportSubtable({ statement, sig });
  } catch (error) {
    console.error("sub-table result delivery failed; the alarm retries", error);
    return;
  }
  if (!answer.ok && TRANSIENT.has(answer.error.code)) return;
  const delivery: Delivery = answer.ok ? { delivered: answer.value.seq } : { refused: answer.error.code };
  t.storage.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", DELIVERY_KEY, JSON.stringify(delivery));
  await t.reschedule();
}
