/**
 * Checkpoints of the folded state, so a table object wakes in O(CHECKPOINT_EVERY, ledger.ts) instead of
 * folding its whole ledger. A checkpoint is a cache, never the truth: it rides in the row of the
 * entry that crosses each mark (no extra row written), carries the STATE_VERSION of the policy
 * that folded it, and is used only when that version is this code's and it names its own row's
 * seq; anything else is ignored and the ledger folded from the start.
 */
import { fold, foldOnto } from "../../../src/protocol/policy/apply.js";
import { frozenConfig, STATE_VERSION, type TableState } from "../../../src/protocol/policy/state.js";
import type { Ledger, StoredCheckpoint } from "./ledger.js";

/** What a checkpoint row carries: `state` after the row's entry, folded by policy `version`. */
export function checkpointText(state: TableState): string {
  return JSON.stringify({ version: STATE_VERSION, state });
}

/** The state a waking table resumes from: its newest usable checkpoint plus the entries after it, else a fold of the whole ledger; null for no table. */
export function wakeState(ledger: Pick<Ledger, "seq" | "latestCheckpoint" | "range" | "all">): TableState | null {
  if (ledger.seq === 0) return null;
  const restored = restore(ledger.latestCheckpoint());
  return restored ? foldOnto(restored, ledger.range(restored.seq + 1, ledger.seq, ledger.seq)) : fold(ledger.all());
}

/** The state in `stored` when it is this policy version's and names its own row; else null. */
export function restore(stored: StoredCheckpoint | null): TableState | null {
  if (!stored) return null;
  try {
    const parsed = JSON.parse(stored.text) as { version?: unknown; state?: TableState };
    if (parsed.version !== STATE_VERSION || parsed.state?.seq !== stored.seq) return null;
    return { ...parsed.state, config: frozenConfig(parsed.state.config) };
  } catch {
    return null;
  }
}
