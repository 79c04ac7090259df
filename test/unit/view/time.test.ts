/**
 * How far an instant is from now, in the words the principal window's <time> elements show
 * (src/page/time.ts): rounded to the nearest minute up to 90 minutes, hour up to 36 hours,
 * then day, ahead ("in …") or behind ("… ago").
 */
import { describe, expect, it } from "vitest";
import { relativeWords } from "../../../src/page/time.js";

const NOW = Date.UTC(2026, 5, 2, 8, 0, 0);
const MIN = 60_000;

describe("relativeWords", () => {
  it("says how far ahead a deadline is, to the nearest minute, hour or day", () => {
    expect(relativeWords(NOW + 23 * MIN, NOW)).toBe("in 23 min");
    expect(relativeWords(NOW + 23 * MIN + 29_000, NOW)).toBe("in 23 min");
    expect(relativeWords(NOW + 89 * MIN, NOW)).toBe("in 89 min");
    expect(relativeWords(NOW + 90 * MIN, NOW)).toBe("in 2 h");
    expect(relativeWords(NOW + 35 * 60 * MIN, NOW)).toBe("in 35 h");
    expect(relativeWords(NOW + 36 * 60 * MIN - 1, NOW)).toBe("in 36 h");
    expect(relativeWords(NOW + 36 * 60 * MIN, NOW)).toBe("in 2 days");
    expect(relativeWords(NOW + 24 * 60 * MIN * 9, NOW)).toBe("in 9 days");
  });

  it("says how long ago a time was the same way", () => {
    expect(relativeWords(NOW - 5 * MIN, NOW)).toBe("5 min ago");
    expect(relativeWords(NOW - 3 * 60 * MIN, NOW)).toBe("3 h ago");
    expect(relativeWords(NOW - 40 * 60 * MIN, NOW)).toBe("2 days ago");
  });

  describe("when the time is less than a minute away", () => {
    it("says so rather than a count of zero", () => {
      expect(relativeWords(NOW + 59_000, NOW)).toBe("in under a minute");
      expect(relativeWords(NOW, NOW)).toBe("in under a minute");
      expect(relativeWords(NOW - 59_000, NOW)).toBe("just now");
    });
  });
});
