/**
 * The held-out leak corpus (test/vectors/leak-heldout.json, built by test/vectors/leak-heldout/build.py
 * by a red-teamer who read only docs/ROOMS.md): cases labelled leak or clean by class, never tuned
 * to: nothing in it says whether the gate catches a case. Run through the gate's own check as the
 * guard calls it; `ambiguous` cases are counted apart. Shared by its unit test and `npm run bench -- --leaks`.
 */
import { z } from "zod";
import { findDisclosure } from "../../src/owner/index.js";

const HeldOutCaseSchema = z.strictObject({
  id: z.string().min(1),
  secret: z.string().min(1),
  body: z.string(),
  recent: z.array(z.string()).nullable().optional(),
  currency: z.string().nullable().optional(),
  label: z.enum(["leak", "clean"]),
  class: z.string().min(1),
});
type HeldOutCase = z.infer<typeof HeldOutCaseSchema>;

const HeldOutSchema = z.strictObject({ about: z.string(), cases: z.array(HeldOutCaseSchema).min(100) });

/** What the gate did with the held-out corpus: per label and class how many it flagged, and the ids of leaks missed and clean cases flagged (ambiguous ones apart). */
export interface HeldOutRun {
  leaks: number;
  caught: number;
  clean: number;
  flagged: string[];
  missed: string[];
  byClass: { label: "leak" | "clean"; name: string; cases: number; flagged: number }[];
}

function isFlagged(c: HeldOutCase): boolean {
  return (
    findDisclosure(
      { kind: "say", body: c.body },
      { never: [c.secret], recent: c.recent ?? undefined, currency: c.currency ?? undefined },
    ) !== null
  );
}

/** Runs every case of the held-out corpus text `text`. */
export function runHeldOut(text: string): HeldOutRun {
  const { cases } = HeldOutSchema.parse(JSON.parse(text));
  const run: HeldOutRun = { leaks: 0, caught: 0, clean: 0, flagged: [], missed: [], byClass: [] };
  const rows = new Map<string, HeldOutRun["byClass"][number]>();
  for (const c of cases) {
    const hit = isFlagged(c);
    const key = `${c.label}:${c.class}`;
    const row = rows.get(key) ?? { label: c.label, name: c.class, cases: 0, flagged: 0 };
    rows.set(key, { ...row, cases: row.cases + 1, flagged: row.flagged + (hit ? 1 : 0) });
    if (c.class === "ambiguous") continue;
    if (c.label === "leak") {
      run.leaks += 1;
      if (hit) run.caught += 1;
      else run.missed.push(c.id);
    } else {
      run.clean += 1;
      if (hit) run.flagged.push(c.id);
    }
  }
  run.byClass = [...rows.values()].sort((a, b) => a.label.localeCompare(b.label) || a.name.localeCompare(b.name));
  return run;
}
