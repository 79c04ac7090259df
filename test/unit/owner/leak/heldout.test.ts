/**
 * The held-out leak corpus (test/vectors/leak-heldout.json): written by a red-teamer from docs/ROOMS.md
 * alone. The gate refuses none of its clean cases (ordinary amounts, neighbours of each secret, dates,
 * versions, honest conversations), and catches at least as many of its leaks as when it was last
 * measured (docs/ROOMS.md), so a change that reads fewer spellings fails here. Which leaks it
 * catches is not pinned, so the corpus stays a measurement, not a target.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runHeldOut } from "../../../support/leak-heldout.js";

/** Leaks caught at the last measurement (docs/ROOMS.md, "Measured"). */
const CAUGHT_AT_LEAST = 312;

describe("the held-out leak corpus", () => {
  const run = runHeldOut(readFileSync(new URL("../../../vectors/leak-heldout.json", import.meta.url), "utf8"));

  it("refuses none of its clean cases", () => {
    expect(run.flagged).toEqual([]);
    expect(run.clean).toBeGreaterThanOrEqual(150);
  });

  it(`catches at least ${CAUGHT_AT_LEAST} of its leaks`, () => {
    expect(run.caught).toBeGreaterThanOrEqual(CAUGHT_AT_LEAST);
  });
});
