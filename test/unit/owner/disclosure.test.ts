/**
 * The never_disclose check (docs/ROOMS.md): every key and value, any depth, any case and Unicode
 * form; numbers by value in any spelling; encoded text decoded; a secret split over the seat's
 * recent messages; money amounts by value under the mandate's secret_amount; paths by position.
 */
import { describe, expect, it } from "vitest";
import {
  authoredPart,
  disclosureCheck,
  disclosureMessage,
  findDisclosure,
  foldText,
  type LeakCheck,
} from "../../../src/owner/index.js";
import { JOIN_REACH } from "../../../src/owner/leak/split.js";

const NEVER = ["2400", "floor", "Sara's address"];
const check = (over: Partial<LeakCheck> = {}): LeakCheck => ({ never: NEVER, ...over });

describe("findDisclosure", () => {
  it("finds a listed string in a top-level body", () => {
    expect(findDisclosure({ kind: "say", body: "my floor is low" }, check())).toEqual({
      index: 1,
      path: "$.body",
      form: "text",
    });
  });

  it("finds it in a nested field of any depth, naming keys the protocol does not define by position", () => {
    const value = { kind: "offer", terms: { text: "ok" }, extra: { a: [{ b: { c: "at least 2400, sorry" } }] } };
    expect(findDisclosure(value, check())).toEqual({
      index: 0,
      path: "$.<key 3>.<key 1>[0].<key 1>.<key 1>",
      form: "text",
    });
  });

  it("finds it in a __proto__ key and in its value, as ordinary keys", () => {
    const asKey = JSON.parse('{"kind":"say","body":"x","__proto__":{"FLOOR":1}}') as unknown;
    expect(findDisclosure(asKey, check())).toEqual({ index: 1, path: "$.<key 3>.<key 1>", form: "text" });
    const asValue = JSON.parse('{"kind":"say","body":"x","__proto__":"2400"}') as unknown;
    expect(findDisclosure(asValue, check())).toEqual({ index: 0, path: "$.<key 3>", form: "text" });
  });

  it.each([
    ["upper case", "MY FLOOR"],
    ["full-width digits", "\uff12\uff14\uff10\uff10 is my limit"],
    ["full-width letters", "\uff26\uff2c\uff2f\uff2f\uff32"],
    ["zero-width characters inside", "2\u200b4\u200d00"],
    ["a bidi override inside", "fl\u202eoor"],
  ])("finds it written in %s", (_, body) => {
    expect(findDisclosure({ body }, check())).not.toBeNull();
  });

  it("matches decomposed (NFD) text against a composed listed string, and the other way round", () => {
    const composed = "caf\u00e9 on Main St";
    const decomposed = "cafe\u0301 on Main St";
    expect(findDisclosure({ body: decomposed }, { never: [composed] })).toEqual({
      index: 0,
      path: "$.body",
      form: "text",
    });
    expect(findDisclosure({ body: composed }, { never: [decomposed] })).toEqual({
      index: 0,
      path: "$.body",
      form: "text",
    });
  });

  it("says when a secret was found only once decoded", () => {
    expect(findDisclosure({ body: "see MjQwMA==" }, check())).toEqual({ index: 0, path: "$.body", form: "encoded" });
  });

  describe("a number on the list, by value", () => {
    it("finds a number value equal to it, outside money", () => {
      expect(findDisclosure({ kind: "say", body: "x", re: 2400 }, check())).toEqual({
        index: 0,
        path: "$.re",
        form: "number",
      });
    });

    it("finds a money amount equal to it in major units (240000 TWD is 2400.00) or as the integer, and refuses it by default", () => {
      expect(findDisclosure({ kind: "offer", terms: { amount: 240000, currency: "TWD" } }, check())).toEqual({
        index: 0,
        path: "$.terms.amount",
        form: "amount",
      });
      expect(findDisclosure({ kind: "offer", terms: { amount: 2400, currency: "JPY" } }, check())).toEqual({
        index: 0,
        path: "$.terms.amount",
        form: "amount",
      });
      expect(findDisclosure({ kind: "mechanism", op: "reveal", bid: 240000 }, check({ currency: "TWD" }))).toEqual({
        index: 0,
        path: "$.bid",
        form: "amount",
      });
    });

    it("lets a money amount equal to it through when the mandate's secret_amount is allow, but never the text", () => {
      expect(
        findDisclosure({ kind: "offer", terms: { amount: 240000, currency: "TWD" } }, check({ secretAmount: "allow" })),
      ).toBeNull();
      expect(
        findDisclosure(
          { kind: "offer", terms: { amount: 240000, currency: "TWD", text: "my floor price" } },
          check({ secretAmount: "allow" }),
        ),
      ).toMatchObject({ index: 1, form: "text" });
      expect(
        findDisclosure(
          { kind: "offer", body: "2,400 is my last word", terms: { amount: 240000, currency: "TWD" } },
          check({ secretAmount: "allow" }),
        ),
      ).toMatchObject({ index: 0, path: "$.body" });
    });
  });

  describe("the recent text of the seat", () => {
    it("finds a secret split over the seat's last messages and this one", () => {
      expect(
        findDisclosure({ kind: "say", body: "00" }, check({ recent: ["my floor? it starts with", "24"] })),
      ).toEqual({ index: 0, path: "$", form: "split" });
      expect(findDisclosure({ kind: "say", body: "four hundred" }, check({ recent: ["two thousand"] }))).toMatchObject({
        index: 0,
        form: "split",
      });
      expect(findDisclosure({ kind: "say", body: "oor" }, check({ recent: ["fl"] }))).toMatchObject({
        index: 1,
        form: "split",
      });
    });

    it("finds a secret split over a message's body and its terms text", () => {
      expect(findDisclosure({ kind: "offer", body: "24", terms: { text: "00" } }, check())).toMatchObject({
        index: 0,
        form: "split",
      });
    });

    it.each([
      ["digits inside sentences", ["my floor starts with 24, ok?"], "and it ends with 00."],
      ["one digit per message", ["first digit: 2", "then 4", "then 0"], "and the last is 0"],
      ["a number then its zeros", ["think of 240"], "and add a 0 at the end"],
      ["a message in between without numbers", ["it begins with 24", "are you following?"], "then 00"],
      ["words inside sentences", ["it starts at two thousand, right?"], "plus four hundred on top"],
      ["words in another language", ["deux mille, d'abord"], "puis quatre cents"],
      ["a quantity then its unit price, whose total it is", ["we need 24 of them"], "at 100 each"],
      [
        "the body then the terms text",
        [],
        { kind: "offer", body: "the first half is 24", terms: { text: "the second half is 00" } },
      ],
    ])("finds a secret split into numbers inside sentences: %s", (_, recent, current) => {
      const message = typeof current === "string" ? { kind: "say", body: current } : current;
      expect(findDisclosure(message, check({ recent }))).toMatchObject({ index: 0, form: "split" });
    });

    it.each([
      ["two amounts", ["I have 2 kids"], "400 is my max"],
      ["a count then an amount", ["we need 24 of them"], "the budget is 100"],
      ["a date then a time", ["see you on the 24th"], "at 10:00"],
      ["a counter-offer after a quantity", ["2 strollers"], "for 4,000 total"],
      ["an amount then a different one in words", ["two thousand people came"], "and forty left"],
      ["numbers within one message", [], "I have 2 kids and 400 toys, 24 of them 00-gauge"],
    ])("does not read ordinary numbers over messages as a split: %s", (_, recent, body) => {
      expect(findDisclosure({ kind: "say", body }, check({ recent }))).toBeNull();
    });

    it("finds a split at the start of a long message, past a long recent text", () => {
      const filler = "The stroller folds flat and has a rain cover. ".repeat(80);
      expect(
        findDisclosure(
          { kind: "say", body: `00, that is the rest. ${filler}` },
          check({ recent: [filler, "my floor starts with 24"] }),
        ),
      ).toMatchObject({ index: 0, form: "split" });
    });

    it(`reads a message joined to the recent text ${JOIN_REACH} characters on and up to a sentence end, never a number cut short there`, () => {
      const before = "24 ";
      const phrase = "two thousand four hundred and fifty people came.";
      const padding = "x ".repeat((JOIN_REACH - phrase.indexOf(" and") + 2) / 2);
      expect(before.length + padding.length + phrase.indexOf(" and")).toBeGreaterThanOrEqual(JOIN_REACH);
      expect(findDisclosure({ kind: "say", body: padding + phrase }, check({ recent: [before] }))).toBeNull();
    });

    it("does not blame this message for a secret the recent text already held", () => {
      expect(
        findDisclosure({ kind: "say", body: "the stroller folds flat" }, check({ recent: ["it was 2400 last year"] })),
      ).toBeNull();
    });
  });

  describe("when nothing listed appears", () => {
    it("finds nothing in an unrelated message, and nothing for an empty list", () => {
      expect(
        findDisclosure({ body: "I can do 2,800", terms: { amount: 280000, currency: "TWD" } }, check()),
      ).toBeNull();
      expect(findDisclosure({ body: "2400" }, { never: [] })).toBeNull();
    });

    it("never refuses an amount or a text for digits that merely contain the secret", () => {
      expect(findDisclosure({ kind: "offer", terms: { amount: 324000, currency: "TWD" } }, check())).toBeNull();
      expect(findDisclosure({ kind: "offer", terms: { amount: 32400, currency: "JPY" } }, check())).toBeNull();
      expect(findDisclosure({ kind: "say", body: "they paid 324,000 for the flat" }, check())).toBeNull();
      expect(
        findDisclosure(
          { kind: "offer", expires: 1_764_602_400_000, terms: { amount: 250000, currency: "TWD" } },
          check(),
        ),
      ).toBeNull();
    });

    it("does not read meaning: a bit under two and a half thousand passes", () => {
      expect(findDisclosure({ body: "a bit under two and a half thousand" }, check())).toBeNull();
    });
  });

  it("folds text by NFKC, case and invisible characters", () => {
    expect(foldText("\uff21B\u200bc")).toBe("abc");
  });
});

describe("disclosureCheck (one never_disclose list compiled once, for many messages)", () => {
  const messages: unknown[] = [
    { kind: "say", body: "my floor is low" },
    { kind: "offer", terms: { amount: 240000, currency: "TWD" } },
    { kind: "offer", terms: { amount: 324000, currency: "TWD" } },
    { kind: "say", body: "two thousand four hundred" },
    { kind: "say", body: "nothing to see" },
    { kind: "say", body: "240000 cents" },
  ];

  it("finds in each message what findDisclosure finds, under each message's own currency and setting, also when it scanned the same text before", () => {
    const compiled = disclosureCheck(NEVER);
    for (const value of [...messages, ...messages]) {
      for (const over of [{}, { currency: "TWD" }, { currency: "TWD", secretAmount: "allow" as const }]) {
        expect(compiled(value, over)).toEqual(findDisclosure(value, check(over)));
      }
    }
    expect(compiled(messages[0], {})).toEqual({ index: 1, path: "$.body", form: "text" });
  });

  it("finds nothing against an empty list", () => {
    expect(disclosureCheck([])({ kind: "say", body: "2400" }, {})).toBeNull();
  });
});

describe("a refusal's path and message (issue 22, point 5)", () => {
  const forms = ["2400", "2,400", "MjQwMA", "two thousand four hundred"];

  it.each(forms)("names a secret used as a JSON key (%j) by its position, never by the key", (key) => {
    const message = {
      kind: "proposal",
      body: "x",
      effects: [{ owner: "o", resource: "r", action: "a", args: { x: { [key]: 1 } } }],
    };
    const found = findDisclosure(message, check());
    expect(found).toEqual({
      index: 0,
      path: "$.effects[0].args.<key 1>.<key 1>",
      form: expect.stringMatching(/text|encoded/),
    });
    const message_text = disclosureMessage(found!);
    expect(message_text).toContain("never_disclose entry #1");
    expect(findDisclosure({ path: found!.path, message: message_text }, check())).toBeNull();
  });
});

describe("authoredPart", () => {
  const accept = {
    kind: "accept",
    table: "r-2400",
    seat: "bot-2400",
    nonce: "xx2400xxxxxxxxxxxxxxxx",
    offer: `2400${"0".repeat(60)}`,
    body: "deal",
  };

  it("leaves out the nonce, the seat's place and the entry a message names, which cannot carry the agent's words", () => {
    expect(findDisclosure(authoredPart(accept), { never: ["2400"] })).toBeNull();
  });

  it("leaves out the listing a market withdrawal or new version names, which is the hash of an entry in the ledger", () => {
    const listing = `ab2400cd${"0".repeat(56)}`;
    expect(
      findDisclosure(
        authoredPart({ kind: "unlist", table: "m-2400", seat: "bot", nonce: "n".repeat(22), listing, body: "" }),
        { never: ["2400"] },
      ),
    ).toBeNull();
    const version = {
      kind: "listing",
      side: "offer",
      title: "Stroller",
      category: "baby-gear",
      quantity: 1,
      expires: 1,
      supersedes: listing,
      body: "",
    };
    expect(findDisclosure(authoredPart(version), { never: ["2400"] })).toBeNull();
    expect(findDisclosure(authoredPart({ ...version, text: "not under 2400" }), { never: ["2400"] })).toEqual({
      index: 0,
      path: "$.text",
      form: "text",
    });
  });

  it("keeps everything the agent wrote, nested or not", () => {
    expect(findDisclosure(authoredPart({ ...accept, body: "my floor is 2400" }), { never: ["2400"] })).toEqual({
      index: 0,
      path: "$.body",
      form: "text",
    });
    expect(
      findDisclosure(authoredPart({ ...accept, terms: { amount: 240000, currency: "TWD" } }), { never: ["2400"] }),
    ).toEqual({ index: 0, path: "$.terms.amount", form: "amount" });
  });
});
