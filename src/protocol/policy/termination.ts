/**
 * Termination (docs/SPEC.md §5.4): after each accepted entry, the first listed condition that
 * fires closes the table. The relay's own ledger cap (`ledger_full`) is ledger-limit.ts's.
 */
import type { CloseReason, EntryDraft, UnchainedEntry } from "../schemas/entry.js";
import type { TableState } from "./state.js";

/** The close reason that fires after `entry` was applied to `state`, or null. */
export function closeReasonAfter(state: TableState, entry: UnchainedEntry | EntryDraft): CloseReason | null {
  for (const condition of state.config.termination.any) {
    if (condition === "decision") {
      if (isDecision(entry)) return "decision";
    } else if (condition === "rounds_exhausted") {
      // Fired by the floor when the topology's floor ends (admit.ts consequences), not by an entry count.
    } else if ("budget_tokens" in condition) {
      if (state.tokens >= condition.budget_tokens) return "budget_tokens";
    } else if ("quorum" in condition) {
      if (entry.kind === "system" && entry.subkind === "decision") return "quorum";
    } else if (state.authored >= condition.max_entries) {
      return "max_entries";
    }
  }
  return null;
}

/** Whether an entry is a decision: a seat's, or one the table reached by quorum. */
export function isDecision(entry: UnchainedEntry | EntryDraft): boolean {
  return entry.kind === "decision" || (entry.kind === "system" && entry.subkind === "decision");
}

/** Tokens an authored entry costs: its reported budget, else a quarter of its original length. */
export function tokenCost(entry: { body: string; budget?: { tokens: number }; truncated?: { chars: number } }): number {
  return entry.budget?.tokens ?? Math.ceil((entry.truncated?.chars ?? entry.body.length) / 4);
}
