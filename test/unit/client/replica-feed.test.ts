/**
 * Cutting an export into replica pages (docs/SPEC.md §8.1, §8.4): a relay puts a head after every
 * LIMITS.export_head_bytes of entry lines, never right before a caused entry; the pages end at
 * those heads, each fits a replica page, and fed in order they verify to the state of the whole.
 */
import { describe, expect, it } from "vitest";
import { replicaPages } from "../../../src/client/index.js";
import {
  canonicalize,
  EMPTY_TIP,
  exportHeadPoints,
  exportLineBytes,
  fold,
  isCaused,
  LIMITS,
  nonceKeyOf,
  signHead,
  TrestleError,
  verifyExtension,
  type Entry,
  type ReplicaTip,
} from "../../../src/protocol/index.js";
import { cast, keyOf, MemoryLedger } from "../../support/table-fixture.js";
import { openConfig } from "../protocol/fixtures.js";

const k = await cast();
const relay = await keyOf("relay-a");
const ledger = new MemoryLedger(relay);
await ledger.create(k.ops, "ops", openConfig(k, { id: "t-pages", termination: { any: [{ max_entries: 500 }] } }));
await ledger.join(k.tao, "tao", "x", k.botTao);
await ledger.join(k.jenny, "jenny", "y", k.botJenny);
for (let i = 0; i < 90; i += 1) {
  await ledger.submit(i % 2 ? k.botJenny : k.botTao, {
    seat: i % 2 ? "y" : "x",
    kind: "say",
    body: `${i} `.padEnd(8000, "x"),
  });
}
const entries = ledger.entries;
const points = exportHeadPoints(entries, new Map());
const heads = [
  ...(await Promise.all(points.map((p) => signHead(relay, { table: "t-pages", ...p })))),
  await ledger.head(),
];

describe("exportHeadPoints", () => {
  it("puts a head after each run of more than export_head_bytes, never before a caused entry nor after the last", () => {
    expect(points.length).toBeGreaterThanOrEqual(2);
    let from = 1;
    for (const point of points) {
      const run = entries.slice(from - 1, point.seq).reduce((sum, e) => sum + exportLineBytes(e), 0);
      expect(run).toBeGreaterThan(LIMITS.export_head_bytes);
      expect(isCaused(entries[point.seq]!)).toBe(false);
      from = point.seq + 1;
    }
    expect(points.at(-1)!.seq).toBeLessThan(entries.length);
  });
});

describe("replicaPages", () => {
  it("cuts the export at its heads into pages that fit a replica page and verify in order to the whole ledger's state", async () => {
    const pages = replicaPages({ items: entries, heads: [...heads].reverse(), originals: new Map() });
    expect(pages.map((p) => p.head.seq)).toEqual(heads.map((h) => h.seq));
    let tip: ReplicaTip = EMPTY_TIP;
    const used = new Set<string>();
    for (const page of pages) {
      expect(new TextEncoder().encode(canonicalize(page)).length).toBeLessThan(LIMITS.replica_page_bytes);
      const verified = await verifyExtension(
        tip,
        { items: page.items, originals: new Map(), head: page.head },
        LIMITS.entries,
      );
      for (const key of page.items.map((e) => nonceKeyOf(e))) if (key !== null) used.add(key);
      tip = { state: verified.state, link: verified.links.at(-1)!, nonceUsed: (key) => used.has(key) };
    }
    expect(canonicalize(tip.state)).toBe(canonicalize(fold(entries as Entry[])));
  });

  describe("when the export hides entries from its reader", () => {
    it("refuses to cut it (E_FORBIDDEN): a replica holds every entry in full", () => {
      const items = entries.map((e, i) => (i === 5 ? { seq: e.seq, leaf: e.leaf } : e));
      let error: unknown;
      try {
        replicaPages({ items, heads, originals: new Map() });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TrestleError);
      expect((error as TrestleError).code).toBe("E_FORBIDDEN");
    });
  });
});
