/** Whole-number flags (--amount, --cap, --re, …) take every integer the protocol does, 0 to 2^53 − 1, and refuse the rest as usage errors. */
import { describe, expect, it } from "vitest";
import { integer, parse } from "../../../src/cli/args.js";
import { UsageError } from "../../../src/cli/exit.js";

const amount = (value: string) => integer(parse([`--amount=${value}`], { amount: { type: "string", help: "" } }), "amount");

describe("integer flags", () => {
  it.each(["0", "280000", "1000000000000000", "9007199254740991"])("take %s", (value) => {
    expect(amount(value)).toBe(Number(value));
  });

  describe("when the value is not a whole number of the protocol", () => {
    it.each(["9007199254740992", "9007199254740993", "99999999999999999", "-1", "1.5", "1e3", "0x10", ""])("refuse %j with a usage error naming the range", (value) => {
      expect(() => amount(value)).toThrow(UsageError);
      expect(() => amount(value)).toThrow("--amount must be a whole number from 0 to 9007199254740991");
    });
  });
});
