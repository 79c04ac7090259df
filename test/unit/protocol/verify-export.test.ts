/**
 * The export format (export.ts): every line is canonical JSON of one known shape, in order, and a
 * truncated entry can carry its original body so the cut is checked, not trusted.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  canonicalize,
  exportText,
  VerifyReportSchema,
  type Entry,
  type SignedHead,
} from "../../../src/protocol/index.js";
import { debateConfig } from "../../support/table-fixture.js";
import {
  copy,
  exportLines as lines,
  exportOf,
  headOver,
  pinnedDebate,
  rechain,
  seatedDebate,
  unlines,
} from "./fixtures.js";

const { k, entries, head, verify, refutation } = await pinnedDebate();

describe("verifyExport refutes a malformed export", () => {
  describe("when a line is not a valid export line", () => {
    it("refutes an unparseable line with its line number", async () => {
      const ls = lines(exportOf(k.relay, entries, [head]));
      ls[2] = ls[2]!.slice(0, -1);
      expect(await refutation(unlines(ls))).toEqual({ seq: null, line: 3, reason: "line 3 is not canonical JSON" });
    });

    it("refutes a line that is JSON but not canonical (key order)", async () => {
      const ls = lines(exportOf(k.relay, entries, [head]));
      ls[3] = JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(ls[3]!) as object).reverse()));
      expect(await refutation(unlines(ls))).toEqual({ seq: null, line: 4, reason: "line 4 is not canonical JSON" });
    });

    it("refutes a line that is JSON but not canonical (whitespace)", async () => {
      const ls = lines(exportOf(k.relay, entries, [head]));
      ls[5] = `${ls[5]} `;
      expect(await refutation(unlines(ls))).toEqual({ seq: null, line: 6, reason: "line 6 is not canonical JSON" });
    });

    it("refutes an export without its final newline", async () => {
      const text = exportOf(k.relay, entries, [head]);
      expect(await refutation(text.slice(0, -1))).toMatchObject({
        seq: null,
        line: 17,
        reason: "an export ends with a newline",
      });
    });

    it("refutes an unknown field inside an entry", async () => {
      const ls = lines(exportOf(k.relay, entries, [head]));
      const line = JSON.parse(ls[6]!) as { entry: Record<string, unknown> };
      line.entry.extra = 1;
      ls[6] = canonicalize(line);
      expect(await refutation(unlines(ls))).toEqual({
        seq: null,
        line: 7,
        reason: "line 7 is not a valid export line",
      });
    });

    it("refutes an unknown field on the line itself", async () => {
      const ls = lines(exportOf(k.relay, entries, [head]));
      ls[4] = canonicalize({ ...(JSON.parse(ls[4]!) as object), note: "x" });
      expect(await refutation(unlines(ls))).toEqual({
        seq: null,
        line: 5,
        reason: "line 5 is not a valid export line",
      });
    });

    it("refutes an unknown field in a head", async () => {
      const ls = lines(exportOf(k.relay, entries, [head]));
      ls[16] = canonicalize({ type: "head", head: { ...head, extra: true } });
      expect(await refutation(unlines(ls))).toEqual({
        seq: null,
        line: 17,
        reason: "line 17 is not a valid export line",
      });
    });

    it("refutes an unknown field in the header", async () => {
      const ls = lines(exportOf(k.relay, entries, [head]));
      ls[0] = canonicalize({ ...(JSON.parse(ls[0]!) as object), comment: "hi" });
      expect(await refutation(unlines(ls))).toEqual({
        seq: null,
        line: 1,
        reason: "line 1 is not a trestle export header",
      });
    });

    it("refutes an entry line after the heads", async () => {
      const ls = lines(exportOf(k.relay, entries, [head]));
      ls.push(ls[15]!);
      expect(await refutation(unlines(ls))).toEqual({ seq: null, line: 18, reason: "line 18: entries after heads" });
    });

    it("refutes a blank line", async () => {
      const text = exportOf(k.relay, entries, [head]);
      expect(await refutation(`${text}\n`)).toEqual({ seq: null, line: 18, reason: "line 18 is not canonical JSON" });
    });

    it("reports coverage of nothing checked", async () => {
      const report = await verify("not an export\n");
      expect(VerifyReportSchema.parse(report)).toMatchObject({
        verdict: "REFUTED",
        table: null,
        last_seq: 0,
        coverage: { entries: 0, relay_key_pinned: true },
      });
    });
  });
});

describe("verifyExport reads each entry as the schema reads it", () => {
  describe("when an entry line leaves out a body the schema fills in", () => {
    it("verifies the entry with its empty body, exactly as the export that writes it", async () => {
      const l = await seatedDebate(k);
      await l.submit(k.botTao, { seat: "bot-tao", kind: "pass", body: "" });
      const text = exportOf(k.relay, l.entries, [await l.head()]);
      const ls = lines(text);
      const at = ls.findIndex((line) => line.includes('"body":"",'));
      expect(at).toBeGreaterThan(0);
      ls[at] = ls[at]!.replace('"body":"",', "");
      const report = await verify(unlines(ls));
      expect(report.verdict).toBe("CLEAN");
      expect(report).toEqual(await verify(text));
    });
  });
});

describe("verifyExport with truncated bodies", () => {
  const ORIGINAL = "we should ship #459 first, it is ready";
  let truncated: { entries: Entry[]; head: SignedHead };

  beforeAll(async () => {
    const l = await seatedDebate(k, debateConfig(k, { floor: { max_chars: 20 } }));
    const [say] = await l.submit(k.botTao, { seat: "bot-tao", kind: "say", body: ORIGINAL });
    expect(say).toMatchObject({ seq: 6, body: "we should ship #459 ", truncated: { chars: 38 } });
    truncated = { entries: l.entries, head: await l.head() };
  });

  /** The export of `items` with a head over them and the given originals after their entries. */
  async function withOriginals(items: Entry[], originals: [number, string][]): Promise<string> {
    return exportText(
      { table: "t-459", relay: k.relay.publicKeyText },
      items,
      [await headOver(k.relay, items)],
      new Map(originals),
    );
  }

  /** The fixture with entry 6's visible body replaced, re-chained as a lying relay would. */
  function forged(body: string): Entry[] {
    const copyOf = copy(truncated.entries);
    Object.assign(copyOf[5]!, { body });
    return rechain(copyOf);
  }

  it("is CLEAN when the export carries each original and it cuts to the stored body", async () => {
    const report = await verify(await withOriginals(truncated.entries, [[6, ORIGINAL]]));
    expect(report).toMatchObject({ verdict: "CLEAN", coverage: { truncated_checked: 1, truncated_unchecked: 0 } });
  });

  it("is INCONCLUSIVE without the original, naming what it could not check", async () => {
    const report = await verify(exportOf(k.relay, truncated.entries, [truncated.head]));
    expect(report).toMatchObject({
      verdict: "INCONCLUSIVE",
      unchecked: ["1 truncated bodies were not checked against their originals"],
      coverage: { truncated_checked: 0, truncated_unchecked: 1, policy_replay: "full" },
    });
  });

  it("is never CLEAN when the relay replaced a truncated body with other text of the same length", async () => {
    const report = await verify(await withOriginals(forged("we must never ship! "), []));
    expect(report.verdict).not.toBe("CLEAN");
  });

  describe("when the original and the entry disagree", () => {
    it("refutes a replaced truncated body at its seq once the original is present", async () => {
      const report = await verify(await withOriginals(forged("we must never ship! "), [[6, ORIGINAL]]));
      expect(report).toMatchObject({
        verdict: "REFUTED",
        refuted: { seq: 6, reason: "the truncated body is not the cut of the original" },
      });
    });

    it("refutes an original that does not hash to what the seat signed", async () => {
      const other = ORIGINAL.replace("ready", "risky");
      const report = await verify(await withOriginals(truncated.entries, [[6, other]]));
      expect(report).toMatchObject({
        verdict: "REFUTED",
        refuted: { seq: 6, reason: "the original body does not match the hash the seat signed" },
      });
    });

    it("refutes an original line that follows no truncated entry", async () => {
      const ls = lines(await withOriginals(truncated.entries, [[6, ORIGINAL]]));
      const original = ls.splice(7, 1)[0]!;
      ls.splice(3, 0, original);
      expect(await refutation(unlines(ls))).toMatchObject({
        seq: null,
        line: 4,
        reason: "line 4: an original body must follow its truncated entry",
      });
    });

    it("refutes a second original for one entry", async () => {
      const ls = lines(await withOriginals(truncated.entries, [[6, ORIGINAL]]));
      ls.splice(8, 0, ls[7]!);
      expect(await refutation(unlines(ls))).toEqual({
        seq: null,
        line: 9,
        reason: "line 9: a second original for one entry",
      });
    });
  });
});
