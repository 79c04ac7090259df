/**
 * What the demo must show, checked after the session: the task verified, the export CLEAN by the
 * CLI's own `trestle verify` (exit 0), and jenny's private note nowhere in the export (which, read
 * as an owner, holds every entry whole), in any case, nor its telling part.
 */
import type { DebateOutcome } from "./debate.js";

/** One check: a stable name for scripts, whether it held, and what it says. */
export interface Check {
  name: "task_verified" | "verify_clean" | "note_absent";
  ok: boolean;
  text: string;
}

/** The verdict `trestle verify` printed first (CLEAN, REFUTED or INCONCLUSIVE), or "" if none. */
export function verdictOf(outcome: Pick<DebateOutcome, "verify">): string {
  return /^(CLEAN|REFUTED|INCONCLUSIVE)\b/.exec(outcome.verify.stdout)?.[1] ?? "";
}

/** The demo's checks, in order. */
export function checksOf(outcome: DebateOutcome): Check[] {
  const verdict = verdictOf(outcome);
  const exported = outcome.exportText.toLowerCase();
  const note = outcome.privateNote.toLowerCase();
  const leaked = [note, "on leave"].filter((text) => exported.includes(text));
  return [
    {
      name: "task_verified",
      ok: outcome.taskState === "verified",
      text: `task ${outcome.task} is ${outcome.taskState}`,
    },
    {
      name: "verify_clean",
      ok: verdict === "CLEAN" && outcome.verify.code === 0,
      text: `trestle verify on the export: ${verdict || "no verdict"} (exit ${outcome.verify.code})`,
    },
    {
      name: "note_absent",
      ok: leaked.length === 0,
      text:
        leaked.length === 0
          ? `jenny's private note appears nowhere in the export (${outcome.exportText.split("\n").length - 1} lines)`
          : `the export holds "${leaked.join('", "')}"`,
    },
  ];
}
