/** The rate-limit step (durable-objects/limits/gcra.ts): a full bucket's burst, the exact wait, the refill, a charged flood, and "off". */
import { describe, expect, it } from "vitest";
import { Buckets, overdrawn, step } from "../../../durable-objects/limits/gcra.js";

const PER_MIN_6 = { count: 6, periodMs: 60_000 };

describe("step", () => {
  it("lets a full bucket's burst through, then names the exact wait for the next token", () => {
    let tat: number | undefined;
    for (let i = 0; i < 6; i++) {
      const s = step(PER_MIN_6, tat, 1000);
      expect(s.waitMs).toBe(0);
      tat = s.tat;
    }
    expect(step(PER_MIN_6, tat, 1000).waitMs).toBe(10_000);
    expect(step(PER_MIN_6, tat, 6000).waitMs).toBe(5000);
    expect(step(PER_MIN_6, tat, 11_000).waitMs).toBe(0);
  });

  it("leaves the bucket as it was on a refusal, unless the request is charged", () => {
    const full = step(PER_MIN_6, 1000 + 60_000, 1000);
    expect(full).toEqual({ tat: 61_000, waitMs: 10_000 });
    expect(step(PER_MIN_6, 61_000, 1000, true)).toEqual({ tat: 71_000, waitMs: 10_000 });
  });

  it("refills over time: a bucket left alone for a period is full again", () => {
    expect(step(PER_MIN_6, 61_000, 61_000 + 60_000).waitMs).toBe(0);
  });

  it("never refuses when the limit is off (count 0)", () => {
    expect(step({ count: 0, periodMs: 60_000 }, Number.MAX_SAFE_INTEGER, 0).waitMs).toBe(0);
  });
});

describe("overdrawn", () => {
  it("is true only once a charged bucket is a further full period in debt", () => {
    let tat = 0;
    for (let i = 0; i < 12; i++) tat = step(PER_MIN_6, tat, 0, true).tat;
    expect(overdrawn(PER_MIN_6, tat, 0)).toBe(false);
    tat = step(PER_MIN_6, tat, 0, true).tat;
    expect(overdrawn(PER_MIN_6, tat, 0)).toBe(true);
  });
});

describe("Buckets", () => {
  it("counts each key apart", () => {
    const buckets = new Buckets();
    const rate = { count: 1, periodMs: 60_000 };
    expect(buckets.take("a", rate, 0)).toBe(0);
    expect(buckets.take("a", rate, 0)).toBe(60_000);
    expect(buckets.take("b", rate, 0)).toBe(0);
  });
});
