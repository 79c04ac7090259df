/**
 * One code per cause (docs/SPEC.md §9, decision 0340): past a published limit is E_TOO_LARGE
 * whichever field it is, a pattern not matched is E_SCHEMA (its length included), and a number
 * outside the canonical profile is E_NOT_CANONICAL, in the library exactly as at the relay.
 */
import { describe, expect, it } from "vitest";
import {
  CapabilityCardSchema,
  LIMITS,
  NoteStatementSchema,
  parseOrThrow,
  SubmissionSchema,
  TableConfigSchema,
  TermsSchema,
} from "../../../src/protocol/index.js";
import { cast, debateConfig, nonceOf } from "../../support/table-fixture.js";
import { refusalCode } from "../../support/refused.js";

const k = await cast("refusal-codes");
const config = debateConfig(k);
const say = { table: "t-459", seat: "bot-tao", nonce: nonceOf("codes"), kind: "say", body: "b" };
const offer = (terms: unknown) => ({ ...say, kind: "offer", body: "", terms });
const note = (text: string) => ({
  scope: "owner_note",
  table: "t-459",
  seat: "bot-tao",
  text,
  nonce: nonceOf("note"),
  ts: 1,
});
const names = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
const over = (chars: number) => "x".repeat(chars + 1);

describe("past a published limit (SPEC §10)", () => {
  it.each([
    ["a note to the owner over note_chars", NoteStatementSchema, note(over(LIMITS.note_chars))],
    ["terms text over terms_text_chars", TermsSchema, { text: over(LIMITS.terms_text_chars) }],
    ["an entry body over body_chars", SubmissionSchema, { ...say, body: over(LIMITS.body_chars) }],
    ["a topic over topic_chars", TableConfigSchema, { ...config, topic: over(LIMITS.topic_chars) }],
    ["a card summary over 500 chars", CapabilityCardSchema, { summary: over(500) }],
    [
      "more owners than owners",
      TableConfigSchema,
      {
        ...config,
        owners: Object.fromEntries(
          names(LIMITS.owners + 1, "o").map((o, i) => [
            o,
            { public_key: i === 0 ? k.tao.publicKeyText : k.jenny.publicKeyText },
          ]),
        ),
      },
    ],
    [
      "more seats than seats",
      TableConfigSchema,
      { ...config, seats: Object.fromEntries(names(LIMITS.seats + 1, "s").map((s) => [s, { owner: "tao" }])) },
    ],
    [
      "more visibility rules than seats",
      TableConfigSchema,
      { ...config, visibility: Object.fromEntries(names(LIMITS.seats + 1, "s").map((s) => [s, {}])) },
    ],
    ["more addressees than to", SubmissionSchema, { ...say, to: names(LIMITS.to + 1, "s") }],
    ["a room's max_parties over owners", TableConfigSchema, { ...config, room: { max_parties: LIMITS.owners + 1 } }],
  ] as const)("refuses %s with E_TOO_LARGE", (_, schema, value) => {
    expect(refusalCode(() => parseOrThrow(schema, value))).toBe("E_TOO_LARGE");
  });

  it("accepts each at the limit", () => {
    expect(NoteStatementSchema.safeParse(note("x".repeat(LIMITS.note_chars))).success).toBe(true);
    expect(TermsSchema.safeParse({ text: "x".repeat(LIMITS.terms_text_chars) }).success).toBe(true);
  });
});

describe("a pattern not matched, length included (SPEC §1)", () => {
  it.each([
    ["a seat name of 65 chars", SubmissionSchema, { ...say, seat: "s".repeat(65) }],
    [
      "a grant scope of 65 chars",
      SubmissionSchema,
      { ...say, kind: "grant", body: "", grantee: "bot-jenny", scope: "s".repeat(65), expires: 1 },
    ],
    ["a nonce of 65 chars", SubmissionSchema, { ...say, nonce: "n".repeat(65) }],
  ] as const)("refuses %s with E_SCHEMA", (_, schema, value) => {
    expect(refusalCode(() => parseOrThrow(schema, value))).toBe("E_SCHEMA");
  });
});

describe("a number outside the canonical profile (SPEC §2)", () => {
  it.each([
    ["an amount past 2^53 - 1", offer({ amount: 2 ** 53, currency: "TWD" })],
    ["a negative amount past -(2^53 - 1)", offer({ amount: -(2 ** 53), currency: "TWD" })],
    ["a fractional amount", offer({ amount: 10.5, currency: "TWD" })],
    ["a seq past 2^53 - 1 in re", { ...say, re: 2 ** 53 + 2 }],
  ] as const)("refuses %s with E_NOT_CANONICAL, as the relay does", (_, value) => {
    expect(refusalCode(() => parseOrThrow(SubmissionSchema, value))).toBe("E_NOT_CANONICAL");
  });
});
