/** The never_disclose check (docs/ROOMS.md): every key and value, any depth, any case and Unicode form; literal, so spelled-out numbers pass. */
import { describe, expect, it } from "vitest";
import { authoredPart, findDisclosure, foldText } from "../../../src/owner/index.js";

const NEVER = ["2400", "floor", "Sara's address"];

describe("findDisclosure", () => {
  it("finds a listed string in a top-level body", () => {
    expect(findDisclosure({ kind: "say", body: "my floor is low" }, NEVER)).toEqual({ index: 1, path: "$.body" });
  });

  it("finds it in a nested field of any depth", () => {
    const value = { kind: "offer", terms: { text: "ok" }, extra: { a: [{ b: { c: "at least 2400, sorry" } }] } };
    expect(findDisclosure(value, NEVER)).toEqual({ index: 0, path: "$.extra.a[0].b.c" });
  });

  it("finds it in a __proto__ key and in its value, as ordinary keys", () => {
    const asKey = JSON.parse('{"kind":"say","body":"x","__proto__":{"FLOOR":1}}') as unknown;
    expect(findDisclosure(asKey, NEVER)).toEqual({ index: 1, path: "$.__proto__.FLOOR" });
    const asValue = JSON.parse('{"kind":"say","body":"x","__proto__":"2400"}') as unknown;
    expect(findDisclosure(asValue, NEVER)).toEqual({ index: 0, path: "$.__proto__" });
  });

  it("finds it in a number: an amount of 240000 minor units holds 2400", () => {
    expect(findDisclosure({ terms: { amount: 240000, currency: "TWD" } }, NEVER)).toEqual({ index: 0, path: "$.terms.amount" });
  });

  it.each([
    ["upper case", "MY FLOOR"],
    ["full-width digits", "\uff12\uff14\uff10\uff10 is my limit"],
    ["full-width letters", "\uff26\uff2c\uff2f\uff2f\uff32"],
    ["zero-width characters inside", "2\u200b4\u200d00"],
    ["a bidi override inside", "fl\u202eoor"],
  ])("finds it written in %s", (_, body) => {
    expect(findDisclosure({ body }, NEVER)).not.toBeNull();
  });

  it("matches decomposed (NFD) text against a composed listed string, and the other way round", () => {
    const composed = "caf\u00e9 on Main St";
    const decomposed = "cafe\u0301 on Main St";
    expect(findDisclosure({ body: decomposed }, [composed])).toEqual({ index: 0, path: "$.body" });
    expect(findDisclosure({ body: composed }, [decomposed])).toEqual({ index: 0, path: "$.body" });
  });

  describe("when nothing listed appears", () => {
    it("finds nothing in an unrelated message, and nothing for an empty list", () => {
      expect(findDisclosure({ body: "I can do 2,800", terms: { amount: 280000, currency: "TWD" } }, NEVER)).toBeNull();
      expect(findDisclosure({ body: "2400" }, [])).toBeNull();
    });

    it("is literal: a number spelled out in words is not caught", () => {
      expect(findDisclosure({ body: "I would not go under twenty-four hundred" }, ["2400"])).toBeNull();
    });
  });

  it("folds text by NFKC, case and invisible characters", () => {
    expect(foldText("\uff21B\u200bc")).toBe("abc");
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
    expect(findDisclosure(authoredPart(accept), ["2400"])).toBeNull();
  });

  it("keeps everything the agent wrote, nested or not", () => {
    expect(findDisclosure(authoredPart({ ...accept, body: "my floor is 2400" }), ["2400"])).toEqual({ index: 0, path: "$.body" });
    expect(findDisclosure(authoredPart({ ...accept, terms: { amount: 240000, currency: "TWD" } }), ["2400"])).toEqual({ index: 0, path: "$.terms.amount" });
  });
});
