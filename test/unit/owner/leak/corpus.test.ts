/**
 * The leak corpus (test/vectors/leak-corpus.json, docs/ROOMS.md "never_disclose"): no clean case
 * is flagged, and the gate catches exactly the leaks the corpus says it catches, so a regression
 * (or an improvement nobody recorded) fails here.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { flagged, LeakCorpusSchema, runCorpus } from "../../../support/leak-corpus.js";

const text = readFileSync(new URL("../../../vectors/leak-corpus.json", import.meta.url), "utf8");
const { cases } = LeakCorpusSchema.parse(JSON.parse(text));

describe("the leak corpus", () => {
  it("holds at least 60 cases, numbers and words, leaks and clean ones", () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    expect(cases.some((c) => c.secret === "floor") && cases.some((c) => c.secret === "2400")).toBe(true);
    expect(cases.some((c) => c.label === "clean")).toBe(true);
  });

  it.each(cases.filter((c) => c.label === "clean").map((c) => [c.id, c] as const))(
    "does not flag the clean case %s",
    (_, c) => {
      expect(flagged(c)).toBe(false);
    },
  );

  it.each(cases.filter((c) => c.label === "leak").map((c) => [c.id, c] as const))(
    "catches the leak %s exactly when the corpus says it does",
    (_, c) => {
      expect(flagged(c)).toBe(c.caught);
    },
  );

  it("reports no false positive and the recorded catch rate", () => {
    const run = runCorpus(text);
    expect(run.falsePositives).toEqual([]);
    expect(run.caught.length).toBe(cases.filter((c) => c.caught === true).length);
  });
});
