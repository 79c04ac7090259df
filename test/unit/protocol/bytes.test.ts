/** Wire byte encodings: lowercase hex, unpadded base64url (RFC 4648 §5), strict UTF-8. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bytesEqual,
  concatBytes,
  fromBase64url,
  fromHex,
  fromUtf8,
  toBase64url,
  toHex,
  utf8,
} from "../../../src/protocol/index.js";
import { refusalCode } from "../../support/refused.js";

describe("hex", () => {
  it("writes lowercase, two digits per byte", () => {
    expect(toHex(Uint8Array.of(0, 1, 0xab, 0xff))).toBe("0001abff");
    expect(toHex(new Uint8Array(0))).toBe("");
  });

  it("round-trips any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(fromHex(toHex(bytes))).toEqual(bytes);
      }),
      { seed: 4648, numRuns: 300 },
    );
  });

  describe("when the text is not hex", () => {
    it.each([
      ["an odd length", "abc"],
      ["a non-hex letter", "0g"],
      ["a 0x prefix", "0x00"],
      ["whitespace", "00 11"],
      ["a sign", "-1"],
    ])("refuses %s with E_SCHEMA", (_what, text) => {
      expect(refusalCode(() => fromHex(text))).toBe("E_SCHEMA");
    });
  });
});

describe("base64url", () => {
  it("encodes the RFC 4648 §10 vectors in the url alphabet without padding", () => {
    const cases: [string, string][] = [
      ["", ""],
      ["f", "Zg"],
      ["fo", "Zm8"],
      ["foo", "Zm9v"],
      ["foob", "Zm9vYg"],
      ["fooba", "Zm9vYmE"],
      ["foobar", "Zm9vYmFy"],
    ];
    for (const [plain, encoded] of cases) {
      expect(toBase64url(utf8(plain))).toBe(encoded);
      expect(fromBase64url(encoded)).toEqual(utf8(plain));
    }
  });

  it("uses - and _ where base64 uses + and /", () => {
    expect(toBase64url(Uint8Array.of(0xfb, 0xff, 0xbf))).toBe("-_-_");
    expect(fromBase64url("-_-_")).toEqual(Uint8Array.of(0xfb, 0xff, 0xbf));
  });

  it("round-trips any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 96 }), (bytes) => {
        const text = toBase64url(bytes);
        expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
        expect(fromBase64url(text)).toEqual(bytes);
      }),
      { seed: 4648, numRuns: 300 },
    );
  });

  describe("when the text is not canonical unpadded base64url", () => {
    it.each([
      ["padding", "Zg=="],
      ["a single pad", "Zm8="],
      ["the standard alphabet's +", "+w"],
      ["the standard alphabet's /", "_/"],
      ["whitespace", "Zm9v Yg"],
      ["a newline", "Zm9v\nYg"],
      ["a length of 1 mod 4", "Zm9vY"],
      ["non-zero tail bits after one byte", "Zh"],
      ["non-zero tail bits after two bytes", "Zm9"],
      ["a non-ASCII character", "Zm9v\u00e9"],
    ])("refuses %s with E_SCHEMA", (_what, text) => {
      expect(refusalCode(() => fromBase64url(text))).toBe("E_SCHEMA");
    });

    it("refuses every non-canonical spelling of one byte", () => {
      for (let c = 0; c < 64; c++) {
        const text = `A${"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[c]}`;
        expect(refusalCode(() => fromBase64url(text))).toBe(c % 16 === 0 ? "accepted" : "E_SCHEMA");
      }
    });
  });
});

describe("utf8", () => {
  it("round-trips well-formed text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(fromUtf8(utf8(text))).toBe(text);
      }),
      { seed: 3629, numRuns: 200 },
    );
  });

  it("keeps a leading byte order mark", () => {
    expect(fromUtf8(Uint8Array.of(0xef, 0xbb, 0xbf, 0x41))).toBe("\uFEFFA");
  });

  describe("when the bytes are not UTF-8", () => {
    it.each([
      ["a lone continuation byte", [0x80]],
      ["a truncated sequence", [0xe2, 0x82]],
      ["an overlong encoding", [0xc0, 0xaf]],
      ["an encoded surrogate", [0xed, 0xa0, 0x80]],
    ])("refuses %s with E_SCHEMA", (_what, bytes) => {
      expect(refusalCode(() => fromUtf8(Uint8Array.from(bytes)))).toBe("E_SCHEMA");
    });
  });
});

describe("concatBytes and bytesEqual", () => {
  it("concatenates in order", () => {
    expect(concatBytes(Uint8Array.of(1), new Uint8Array(0), Uint8Array.of(2, 3))).toEqual(Uint8Array.of(1, 2, 3));
  });

  it("compares content and length", () => {
    expect(bytesEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2))).toBe(true);
    expect(bytesEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 3))).toBe(false);
    expect(bytesEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2, 0))).toBe(false);
  });
});
