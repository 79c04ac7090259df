/** C2SP tlog-witness bodies: the specification's add-checkpoint example, the 409 size body, and malformed bodies with their codes. */
import { describe, expect, it } from "vitest";
import {
  formatAddCheckpoint,
  formatTreeSizeBody,
  parseAddCheckpoint,
  parseCheckpoint,
  parseNote,
  parseTreeSizeBody,
  toBase64,
} from "../../../../src/protocol/index.js";
import { refusalCode } from "../../../support/refused.js";

// tlog-witness.md, add-checkpoint, "Example request body".
const EXAMPLE = `old 20852014
PlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=
jrJZDmY8Y7SyJE0MWLpLozkIVMSMZcD5kvuKxPC3swk=
5+pKlUdi2LeF/BcMHBn+Ku6yhPGNCswZZD1X/6QgPd8=
/6WVhPs2CwSsb5rYBH5cjHV/wSmA79abXAwhXw3Kj/0=

example.com/behind-the-sofa
20852163
CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=

— example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=
— example.com/behind-the-sofa opLqBQsREYCgu6xQkYQwJr9fo45a62DN9EdmHXnZdXNqlcVGlCum2Wks+49/V6267UEjw6QUXTS5Rovnzv++qbSzm9Q=
`;

describe("add-checkpoint bodies", () => {
  it("parse the specification's example into old size, proof and the checkpoint note, and write it back", () => {
    const request = parseAddCheckpoint(EXAMPLE);
    expect(request.oldSize).toBe(20852014);
    expect(request.proof.map(toBase64)[0]).toBe("PlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=");
    expect(request.proof).toHaveLength(4);
    const note = parseNote(request.note);
    expect(parseCheckpoint(note.text).size).toBe(20852163);
    expect(note.signatures).toHaveLength(2);
    expect(formatAddCheckpoint(request)).toBe(EXAMPLE);
  });

  it("carry an empty proof from old size 0", () => {
    const request = parseAddCheckpoint(
      "old 0\n\nexample.com/log\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n\n— example.com/log AAAAAAE=\n",
    );
    expect([request.oldSize, request.proof.length]).toEqual([0, 0]);
  });

  it("read and write the 409 size body", () => {
    expect(formatTreeSizeBody(20852014)).toBe("20852014\n");
    expect(parseTreeSizeBody("20852014\n")).toBe(20852014);
  });

  describe("when a body is malformed", () => {
    const cases: [string, string, string][] = [
      ["no empty line", "old 5\n", "E_SCHEMA"],
      ["no old line", "\nexample.com/log\n", "E_SCHEMA"],
      ["a leading zero", "old 05\n\nx", "E_SCHEMA"],
      ["a proof line of 31 bytes", `old 5\n${toBase64(new Uint8Array(31))}\n\nx`, "E_SCHEMA"],
      ["a base64url proof line", "old 5\nPlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw_\n\nx", "E_SCHEMA"],
      ["64 proof lines", `old 5\n${`${toBase64(new Uint8Array(32))}\n`.repeat(64)}\nx`, "E_TOO_LARGE"],
      ["an old size past 2^53 − 1", "old 9007199254740993\n\nx", "E_TOO_LARGE"],
    ];
    for (const [what, body, code] of cases) {
      it(`refuses ${what} with ${code}`, async () => {
        expect(await refusalCode(() => parseAddCheckpoint(body))).toBe(code);
      });
    }

    it("refuses a size body that is not one decimal line, with E_SCHEMA", async () => {
      expect(await refusalCode(() => parseTreeSizeBody("12"))).toBe("E_SCHEMA");
      expect(await refusalCode(() => parseTreeSizeBody("012\n"))).toBe("E_SCHEMA");
      expect(await refusalCode(() => formatAddCheckpoint({ oldSize: -1, proof: [], note: "" }))).toBe("E_SCHEMA");
    });
  });
});
