/** Whole-number flags (--amount, --cap, --re, …) take every integer the protocol does, 0 to 2^53 − 1, and refuse the rest as usage errors; time flags take a duration from now or an ISO 8601 time with its offset, and nothing else. */
import { describe, expect, it } from "vitest";
import { instant, integer, parse } from "../../../src/cli/args.js";
import { UsageError } from "../../../src/cli/exit.js";

const amount = (value: string) =>
  integer(parse([`--amount=${value}`], { amount: { type: "string", help: "" } }), "amount");

describe("integer flags", () => {
  it.each(["0", "280000", "1000000000000000", "9007199254740991"])("take %s", (value) => {
    expect(amount(value)).toBe(Number(value));
  });

  describe("when the value is not a whole number of the protocol", () => {
    it.each(["9007199254740992", "9007199254740993", "99999999999999999", "-1", "1.5", "1e3", "0x10", ""])(
      "refuse %j with a usage error naming the range",
      (value) => {
        expect(() => amount(value)).toThrow(UsageError);
        expect(() => amount(value)).toThrow("--amount must be a whole number from 0 to 9007199254740991");
      },
    );
  });
});

describe("time flags (--sealed-until, --reveal-until)", () => {
  const NOW = Date.UTC(2025, 5, 1, 12, 0, 0);
  const at = (value: string) =>
    instant(parse([`--until=${value}`], { until: { type: "string", help: "" } }), "until", NOW);

  it.each([
    ["30s", NOW + 30_000],
    ["2h", NOW + 7_200_000],
    ["2025-06-01T18:00:00Z", Date.UTC(2025, 5, 1, 18)],
    ["2025-06-01T20:00+02:00", Date.UTC(2025, 5, 1, 18)],
    ["2025-06-01T18:00:00.250-05:30", Date.UTC(2025, 5, 1, 23, 30, 0, 250)],
    ["2024-02-29T00:00:00Z", Date.UTC(2024, 1, 29)],
  ])("take %s as a duration from now or an ISO 8601 time with its offset", (value, ms) => {
    expect(at(value)).toBe(ms);
  });

  describe("when the value names no instant", () => {
    it.each([
      "tomorrow",
      "2025-06-01T18:00:00",
      "2025-06-01",
      "2025-02-30T10:00:00Z",
      "2025-06-01T24:00:00Z",
      "2025-06-01T18:60Z",
      "2025-06-01T18:00+24:00",
      "1969-12-31T23:59:59Z",
      "-1h",
      "",
    ])("refuse %j with a usage error naming both forms", (value) => {
      expect(() => at(value)).toThrow(UsageError);
      expect(() => at(value)).toThrow(
        "--until takes a time: a duration from now like 30s, 10m, 2h or 1d, or an ISO 8601 time with its offset",
      );
    });
  });
});

describe("a flag that takes a value", () => {
  const flags = {
    key: { type: "string", help: "" },
    json: { type: "boolean", help: "" },
    choice: { type: "string", multiple: true, help: "" },
  } as const;

  it.each([
    [
      "an owner key",
      ["--key", "-RrBylAZUwBWS2IfXEJKHLx2k_l9Rx0ejwuP88LfpQQ"],
      "-RrBylAZUwBWS2IfXEJKHLx2k_l9Rx0ejwuP88LfpQQ",
    ],
    ["a double dash", ["--key", "--"], "--"],
    ["a flag's spelling", ["--key", "--json"], "--json"],
    ["a lone dash", ["--key", "-"], "-"],
  ])("takes the next argument even when it starts with a dash: %s", (_what, argv, value) => {
    const parsed = parse(argv, flags);
    expect(parsed.values.key).toBe(value);
    expect(parsed.values.json).toBeUndefined();
  });

  it("takes every value of a repeated flag, and a boolean flag takes none", () => {
    const parsed = parse(["--choice", "-1", "--json", "--choice", "--2", "rest"], flags);
    expect(parsed.values).toMatchObject({ choice: ["-1", "--2"], json: true });
    expect(parsed.positionals).toEqual(["rest"]);
  });

  it("leaves every argument after -- positional", () => {
    expect(parse(["--json", "--", "--key", "-Ab"], flags)).toMatchObject({
      values: { json: true },
      positionals: ["--key", "-Ab"],
    });
  });

  describe("when a positional argument starts with a dash", () => {
    it("is a usage error saying it goes after --", () => {
      expect(() => parse(["-Ab", "yes"], flags)).toThrow(UsageError);
      expect(() => parse(["-Ab", "yes"], flags)).toThrow('an argument that starts with "-" goes after --');
      expect(parse(["--", "-Ab", "yes"], flags).positionals).toEqual(["-Ab", "yes"]);
    });
  });

  describe("when the flag is last", () => {
    it("is a usage error: its value is missing", () => {
      expect(() => parse(["--key"], flags)).toThrow(UsageError);
    });
  });
});
