/**
 * The classes of spellings issue 34 names (test/support/leak-classes.ts), generated from each
 * secret's value: every spelling is refused, and no honest text of the same shape, nor any
 * ordinary amount (prices, counter-offers, dates, times, phone numbers, versions, sizes, ids,
 * numbers in other languages), is.
 */
import { describe, expect, it } from "vitest";
import { CLASS_SECRETS, cleanClasses, leakClasses, refused } from "../../../support/leak-classes.js";

const leaks = CLASS_SECRETS.flatMap((v) =>
  Object.entries(leakClasses(v)).flatMap(([name, cases]) => cases.map((c) => [name, v, c] as const)),
);
const clean = CLASS_SECRETS.flatMap((v) =>
  Object.entries(cleanClasses(v)).flatMap(([name, cases]) => cases.map((c) => [name, v, c] as const)),
);

describe("the classes of spellings of a secret number", () => {
  it("has spellings of every class and honest texts for every class", () => {
    expect(new Set(leaks.map(([name]) => name)).size).toBeGreaterThanOrEqual(9);
    expect(new Set(clean.map(([name]) => name)).size).toBeGreaterThanOrEqual(10);
  });

  it.each(leaks.map(([name, v, c]) => [name, v, c.body, c] as const))(
    "refuses a %s spelling of %i: %j",
    (_, v, __, c) => {
      expect(refused(c, v)).toBe(true);
    },
  );

  describe("when the text is honest", () => {
    it.each(clean.map(([name, v, c]) => [name, v, c.body, c] as const))(
      "does not refuse a %s text with secret %i: %j",
      (_, v, __, c) => {
        expect(refused(c, v)).toBe(false);
      },
    );
  });
});
