/** C2SP tlog-checkpoint bodies: the specification's example, table origins, and every malformed shape with its code. */
import { describe, expect, it } from "vitest";
import {
  checkpointOf,
  checkpointRoot,
  formatCheckpoint,
  parseCheckpoint,
  parseTableOrigin,
  tableOrigin,
  toBase64,
  fromBase64,
  EMPTY_ROOT,
} from "../../../../src/protocol/index.js";
import { refusalCode } from "../../../support/refused.js";

const EXAMPLE = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n";

describe("checkpoint bodies", () => {
  it("parse and format the tlog-checkpoint example exactly", () => {
    const checkpoint = parseCheckpoint(EXAMPLE);
    expect(checkpoint).toEqual({
      origin: "example.com/behind-the-sofa",
      size: 20852163,
      root: "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=",
      extensions: [],
    });
    expect(checkpointRoot(checkpoint)).toHaveLength(32);
    expect(formatCheckpoint(checkpoint)).toBe(EXAMPLE);
  });

  it("keep extension lines in order", () => {
    const text = `${EXAMPLE}ext one\next two\n`;
    expect(parseCheckpoint(text).extensions).toEqual(["ext one", "ext two"]);
    expect(formatCheckpoint(parseCheckpoint(text))).toBe(text);
  });

  it("write the empty tree as size 0 and SHA-256 of nothing", () => {
    expect(formatCheckpoint(checkpointOf("relay.example/tables/abc", 0, EMPTY_ROOT))).toBe(
      "relay.example/tables/abc\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n",
    );
  });
});

describe("table origins", () => {
  it("name the relay host and the table, and read back", () => {
    expect(tableOrigin("relay.example.com", "deal-42")).toBe("relay.example.com/tables/deal-42");
    expect(tableOrigin("127.0.0.1:8787", "abc")).toBe("127.0.0.1:8787/tables/abc");
    expect(parseTableOrigin("relay.example.com/tables/deal-42")).toEqual({
      host: "relay.example.com",
      table: "deal-42",
    });
    expect(parseTableOrigin("example.com/behind-the-sofa")).toBeUndefined();
  });

  describe("when the host or table is not one", () => {
    it("refuses with E_SCHEMA", async () => {
      expect(await refusalCode(() => tableOrigin("Relay.Example", "abc"))).toBe("E_SCHEMA");
      expect(await refusalCode(() => tableOrigin("https://relay.example", "abc"))).toBe("E_SCHEMA");
      expect(await refusalCode(() => tableOrigin("relay.example/x", "abc"))).toBe("E_SCHEMA");
      expect(await refusalCode(() => tableOrigin("relay.example", "A+b"))).toBe("E_SCHEMA");
    });
  });
});

describe("when a checkpoint body is malformed", () => {
  const cases: [string, string, string][] = [
    ["no final newline", EXAMPLE.slice(0, -1), "E_SCHEMA"],
    ["two lines", "example.com/log\n5\n", "E_SCHEMA"],
    ["an empty origin", `\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n`, "E_SCHEMA"],
    ["a leading zero in the size", "example.com/log\n020\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n", "E_SCHEMA"],
    ["a signed size", "example.com/log\n+20\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n", "E_SCHEMA"],
    [
      "a size past 2^53 − 1",
      "example.com/log\n9007199254740992\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n",
      "E_TOO_LARGE",
    ],
    ["a root without padding", "example.com/log\n1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I\n", "E_SCHEMA"],
    ["a base64url root", "example.com/log\n1\nCsUYapGGPo4dkMgIAUqom_Xajj7h2fB2MPA3j2jxq2I=\n", "E_SCHEMA"],
    ["a root of 31 bytes", `example.com/log\n1\n${toBase64(new Uint8Array(31))}\n`, "E_SCHEMA"],
    [
      "a root with non-zero tail bits",
      "example.com/log\n1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2J=\n",
      "E_SCHEMA",
    ],
    ["an empty extension line", `${EXAMPLE}\n`, "E_SCHEMA"],
    ["a control character", "example.com/\tlog\n1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n", "E_SCHEMA"],
    ["a carriage return", "example.com/log\r\n1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n", "E_SCHEMA"],
    ["17 extension lines", EXAMPLE + "x\n".repeat(17), "E_TOO_LARGE"],
    ["a line past 1024 chars", `${"o".repeat(1025)}\n1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n`, "E_TOO_LARGE"],
    ["a huge text", "o".repeat(30000), "E_TOO_LARGE"],
  ];
  for (const [what, text, code] of cases) {
    it(`refuses ${what} with ${code}`, async () => {
      expect(await refusalCode(() => parseCheckpoint(text))).toBe(code);
    });
  }

  it("refuses to write a root that is not 32 bytes, with E_SCHEMA", async () => {
    expect(await refusalCode(() => checkpointOf("example.com/log", 1, new Uint8Array(31)))).toBe("E_SCHEMA");
    expect(fromBase64(toBase64(EMPTY_ROOT))).toEqual(EMPTY_ROOT);
  });
});
