/**
 * The hash chain (docs/SPEC.md §4.3): leaf = H(0x00 || JCS(entry without leaf, link)),
 * link = H(0x01 || prev_link || leaf), checked against an independent SHA-256 (node:crypto).
 */
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  canonicalize,
  chainEntry,
  GENESIS_LINK,
  leafOf,
  leafOfCanonical,
  linkOf,
  type Entry,
  type UnchainedEntry,
} from "../../../src/protocol/index.js";
import { debateToDecision } from "./fixtures.js";

const sha256hex = (...parts: Uint8Array[]): string => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest("hex");
};

let entries: Entry[];
beforeAll(async () => {
  ({ entries } = await debateToDecision());
});

describe("leafOf and linkOf", () => {
  it("computes every leaf as SHA-256 of 0x00 and the JCS of the entry without leaf and link", () => {
    for (const entry of entries) {
      const { leaf: _l, link: _k, ...rest } = entry;
      expect(entry.leaf).toBe(sha256hex(Uint8Array.of(0), new TextEncoder().encode(canonicalize(rest))));
      expect(leafOf(entry)).toBe(entry.leaf);
    }
  });

  it("computes every link as SHA-256 of 0x01, the previous link and the leaf, from 32 zero bytes", () => {
    let prev = GENESIS_LINK;
    expect(prev).toBe("0".repeat(64));
    for (const entry of entries) {
      expect(entry.link).toBe(sha256hex(Uint8Array.of(1), Buffer.from(prev, "hex"), Buffer.from(entry.leaf, "hex")));
      expect(linkOf(prev, entry.leaf)).toBe(entry.link);
      prev = entry.link;
    }
  });

  it("computes the same leaf from an entry's canonical text as from the entry, with any SHA-256", () => {
    const native = (bytes: Uint8Array) => new Uint8Array(createHash("sha256").update(bytes).digest());
    for (const entry of entries) {
      expect(leafOfCanonical(canonicalize(entry))).toBe(entry.leaf);
      expect(leafOfCanonical(canonicalize(entry), native)).toBe(entry.leaf);
      expect(linkOf(GENESIS_LINK, entry.leaf, native)).toBe(linkOf(GENESIS_LINK, entry.leaf));
    }
  });

  it("has no leaf from a canonical text without its link", () => {
    const { link: _k, ...unlinked } = entries[3]!;
    expect(leafOfCanonical(canonicalize(unlinked))).toBeNull();
  });

  it("ignores leaf and link already present on the entry", () => {
    const entry = entries[5]!;
    expect(leafOf({ ...entry, leaf: "ab".repeat(32), link: "cd".repeat(32) })).toBe(entry.leaf);
  });

  it("keeps leaves and links in separate domains", () => {
    const { leaf: _l, link: _k, ...rest } = entries[0]!;
    const unprefixed = sha256hex(new TextEncoder().encode(canonicalize(rest)));
    expect(leafOf(entries[0]!)).not.toBe(unprefixed);
    expect(linkOf(GENESIS_LINK, entries[0]!.leaf)).not.toBe(
      sha256hex(Uint8Array.of(0), Buffer.from(GENESIS_LINK + entries[0]!.leaf, "hex")),
    );
  });

  it("chainEntry fills in exactly leaf and link", () => {
    const { leaf: _l, link: _k, ...unchained } = entries[2]!;
    expect(chainEntry(unchained as UnchainedEntry, entries[1]!.link)).toEqual(entries[2]);
  });

  describe("when anything in an entry changes", () => {
    it.each([
      ["seq", { seq: 7 }],
      ["ts", { ts: 1 }],
      ["body", { body: "pro, round 9" }],
      ["an added field", { to: ["judge"] }],
    ])("changes the leaf after changing %s", (_what, change) => {
      const entry = entries[5]!;
      expect(leafOf({ ...entry, ...change } as Entry)).not.toBe(entry.leaf);
    });

    it("changes every later link", () => {
      const changed = leafOf({ ...entries[5]!, ts: 1 });
      let prev = linkOf(entries[4]!.link, changed);
      expect(prev).not.toBe(entries[5]!.link);
      for (const entry of entries.slice(6)) {
        prev = linkOf(prev, entry.leaf);
        expect(prev).not.toBe(entry.link);
      }
    });
  });
});
