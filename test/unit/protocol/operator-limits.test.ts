/** The operator's limits (src/protocol/limits/operator-limits.ts): defaults, the demo profile, settings that override them, and settings refused loudly. */
import { describe, expect, it } from "vitest";
import {
  DEMO_LIMITS,
  OPERATOR_LIMITS,
  rateLimited,
  resolveOperatorLimits,
  retryAfterOf,
  retryAfterSeconds,
  untilWindowEnds,
  waitText,
  type TrestleError,
} from "../../../src/protocol/index.js";

const from = (settings: Record<string, string>) => (name: string) => settings[name];

describe("resolveOperatorLimits", () => {
  it("is the defaults without settings, and the demo's with TRESTLE_PUBLIC_DEMO", () => {
    expect(resolveOperatorLimits(from({}))).toEqual(OPERATOR_LIMITS);
    expect(resolveOperatorLimits(from({ TRESTLE_PUBLIC_DEMO: "false" }))).toEqual(OPERATOR_LIMITS);
    expect(resolveOperatorLimits(from({ TRESTLE_PUBLIC_DEMO: "true" }))).toEqual(DEMO_LIMITS);
  });

  it("overrides each limit by its own setting, on a demo too, and takes 0 to mean off", () => {
    expect(resolveOperatorLimits(from({ TRESTLE_LIMIT_OWNER_TABLES: "0" })).owner_tables).toBe(0);
    expect(resolveOperatorLimits(from({ TRESTLE_PUBLIC_DEMO: "true", TRESTLE_LIMIT_TABLE_TTL_MS: "600000" }))).toEqual({
      ...DEMO_LIMITS,
      table_ttl_ms: 600_000,
    });
  });

  it("keeps a demo's lifetimes short and its caps at most the defaults", () => {
    expect(DEMO_LIMITS.table_ttl_ms).toBeGreaterThan(0);
    expect(DEMO_LIMITS.closed_table_ttl_ms).toBeGreaterThan(0);
    for (const [name, value] of Object.entries(DEMO_LIMITS)) {
      if (!name.endsWith("_ttl_ms") && name !== "socket_auth_ms")
        expect(value, name).toBeLessThanOrEqual(OPERATOR_LIMITS[name as keyof typeof OPERATOR_LIMITS]);
    }
  });

  describe("when a setting is not one the relay can run with", () => {
    it.each([
      ["TRESTLE_LIMIT_SEAT_WRITES_PER_MIN", "ten"],
      ["TRESTLE_LIMIT_SEAT_WRITES_PER_MIN", "1.5"],
      ["TRESTLE_LIMIT_SEAT_WRITES_PER_MIN", "-3"],
      ["TRESTLE_LIMIT_OWNER_TABLES", "99999999999999"],
      ["TRESTLE_LIMIT_SOCKET_AUTH_MS", "0"],
      ["TRESTLE_LIMIT_SOCKET_AUTH_MS", "30001"],
      ["TRESTLE_PUBLIC_DEMO", "1"],
    ])("refuses %s=%s with E_UNAVAILABLE naming it", (name, value) => {
      let error: TrestleError | undefined;
      try {
        resolveOperatorLimits(from({ [name]: value }));
      } catch (e) {
        error = e as TrestleError;
      }
      expect(error).toMatchObject({ code: "E_UNAVAILABLE", message: expect.stringContaining(name) });
    });
  });
});

describe("waits in words and in Retry-After", () => {
  it("rounds up to whole seconds, at least one", () => {
    expect(retryAfterSeconds(1)).toBe(1);
    expect(retryAfterSeconds(1001)).toBe(2);
    expect(waitText(500)).toBe("1 s");
    expect(waitText(150_000)).toBe("3 min");
    expect(waitText(3 * 3_600_000)).toBe("3 h");
  });
});

describe("a refusal's wait", () => {
  it("is at least a whole millisecond: a refusal never says to retry at once", () => {
    expect(retryAfterOf(rateLimited("reads_per_min", 0.2, "slow down"))).toBe(1);
    expect(retryAfterOf(rateLimited("reads_per_min", 1500.5, "slow down"))).toBe(1501);
  });

  it("of a fixed window runs to the window's end, when its count starts again", () => {
    const window = 15 * 60_000;
    expect(untilWindowEnds(3 * window, window)).toBe(window);
    expect(untilWindowEnds(3 * window + 1, window)).toBe(window - 1);
    expect(untilWindowEnds(4 * window - 1, window)).toBe(1);
  });
});
