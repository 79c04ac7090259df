/** Room schemas (docs/SPEC.md §5.10): terms are flat and strict; what does not fit is refused, never dropped or coerced. */
import { describe, expect, it } from "vitest";
import {
  normalizeInviteCode,
  parseOrThrow,
  SubmissionSchema,
  SubmitRequestSchema,
  TableConfigSchema,
  TermsSchema,
  validateConfig,
} from "../../../src/protocol/index.js";
import { nonceOf } from "../../support/table-fixture.js";
import { roomCast, roomConfig } from "../../support/room-fixture.js";
import { refusal } from "../../support/refused.js";

const base = { table: "r-stroller", seat: "ben-bot", nonce: nonceOf("schema") };
const offer = (terms: unknown) => ({ ...base, kind: "offer", terms });

describe("room terms", () => {
  it("accept an amount in minor units with its ISO 4217 currency, and text", () => {
    const parsed = parseOrThrow(
      SubmissionSchema,
      offer({ amount: 360000, currency: "TWD", text: "stroller, folds flat" }),
    );
    expect(parsed).toMatchObject({
      kind: "offer",
      terms: { amount: 360000, currency: "TWD", text: "stroller, folds flat" },
      body: "",
    });
  });

  it("accept text alone (an unpriced offer)", () => {
    expect(TermsSchema.safeParse({ text: "I pick it up on Saturday" }).success).toBe(true);
  });

  describe("when terms are not flat, exact terms", () => {
    it.each([
      ['the amount as the string "1000"', { amount: "1000", currency: "TWD" }, "terms.amount"],
      ["a nested amount", { amount: { value: 1000 }, currency: "TWD" }, "terms.amount"],
      ["a fractional amount", { amount: 10.5, currency: "TWD" }, "terms.amount", "E_NOT_CANONICAL"],
      ["a negative amount", { amount: -1, currency: "TWD" }, "terms.amount"],
      ["an amount beyond the safe integers", { amount: 2 ** 53, currency: "TWD" }, "terms.amount", "E_NOT_CANONICAL"],
      ["a lowercase currency", { amount: 1000, currency: "twd" }, "terms.currency"],
      ["a currency that is not ISO 4217", { amount: 1000, currency: "XYZ" }, "terms.currency"],
      ["a withdrawn currency", { amount: 1000, currency: "HRK" }, "terms.currency"],
      ["an amount without a currency", { amount: 1000 }, "terms.currency"],
      ["a currency without an amount", { currency: "TWD", text: "x" }, "terms.currency"],
      ["no amount and no text", {}, "terms"],
      ["an unknown field", { amount: 1000, currency: "TWD", shipping: 60 }, "terms"],
      ["a nested text", { text: { en: "stroller" } }, "terms.text"],
    ] as [string, unknown, string, string?][])("refuses %s", (_, terms, path, code = "E_SCHEMA") => {
      const error = refusal(() => parseOrThrow(SubmissionSchema, offer(terms), "submission"));
      expect(error.code).toBe(code);
      expect(error.message).toContain(path);
    });

    it("refuses terms given as an array", () => {
      expect(
        refusal(() => parseOrThrow(SubmissionSchema, offer([{ amount: 1000, currency: "TWD" }]), "submission")).code,
      ).toBe("E_SCHEMA");
    });

    it("refuses an unknown field on the submission rather than dropping it", () => {
      expect(
        refusal(() =>
          parseOrThrow(SubmissionSchema, { ...offer({ amount: 1000, currency: "TWD" }), price: 1 }, "submission"),
        ).code,
      ).toBe("E_SCHEMA");
      expect(
        refusal(() =>
          parseOrThrow(
            SubmissionSchema,
            { ...base, kind: "accept", offer: "a".repeat(64), amount: 1000 },
            "submission",
          ),
        ).code,
      ).toBe("E_SCHEMA");
    });

    it("refuses an accept naming its offer by seq instead of the entry hash", () => {
      expect(
        refusal(() => parseOrThrow(SubmissionSchema, { ...base, kind: "accept", offer: 7 }, "submission")).code,
      ).toBe("E_SCHEMA");
    });

    it("refuses the same shapes in a submit request the relay parses", () => {
      const result = SubmitRequestSchema.safeParse({
        submission: offer({ amount: "1000", currency: "TWD" }),
        sig: "A".repeat(85) + "A",
      });
      expect(result.success).toBe(false);
    });
  });
});

describe("room configs", () => {
  it("accept a room on an open table without declared seats", async () => {
    const k = await roomCast();
    expect(validateConfig(roomConfig(k)).room).toEqual({});
  });

  describe("when a room config breaks a rule", () => {
    it("refuses a room on another topology", async () => {
      const k = await roomCast();
      const config = roomConfig(k, { topology: { kind: "broadcast", order: ["a"] }, seats: { a: { owner: "sara" } } });
      expect(() => validateConfig(config)).toThrow(/room/);
    });

    it("refuses a room that declares seats", async () => {
      const k = await roomCast();
      expect(() => validateConfig(roomConfig(k, { seats: { a: { owner: "sara" } } }))).toThrow(/declares no seats/);
    });

    it("refuses an unknown key in the room section", async () => {
      const k = await roomCast();
      expect(TableConfigSchema.safeParse({ ...roomConfig(k), room: { encrypted: true } }).success).toBe(false);
    });

    it("refuses e2e other than true: one spelling for an unencrypted room (no key at all)", async () => {
      const k = await roomCast();
      expect(TableConfigSchema.safeParse({ ...roomConfig(k), room: { e2e: true } }).success).toBe(true);
      expect(TableConfigSchema.safeParse({ ...roomConfig(k), room: { e2e: false } }).success).toBe(false);
    });
  });
});

describe("invite codes as typed", () => {
  it("forgive case, spaces and the hyphen", () => {
    expect(normalizeInviteCode(" abcd efgh ")).toBe("ABCD-EFGH");
    expect(normalizeInviteCode("ABCD-EFGH")).toBe("ABCD-EFGH");
  });

  it("refuse look-alike letters, wrong lengths and other characters", () => {
    expect(normalizeInviteCode("ABCD-EFG0")).toBeNull();
    expect(normalizeInviteCode("ABCD-EFGI")).toBeNull();
    expect(normalizeInviteCode("ABCD-EFG")).toBeNull();
    expect(normalizeInviteCode("ABCD-EFGHJ")).toBeNull();
    expect(normalizeInviteCode("ABCD_EFGH")).toBeNull();
  });
});
