/** Verifying an export together with the heads a client already holds: a shorter or different export is REFUTED. */
import { describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportIdentity, HttpClient, verifyExportText } from "../../../src/client/index.js";
import { openTable } from "../../../src/client/node.js";
import { exportText, parseExport, signHead, type SignedHead } from "../../../src/protocol/index.js";
import { cast, keyOf, MemoryLedger, seatedDebate } from "../../support/table-fixture.js";
import { broadcastConfig, TestTable } from "../protocol/fixtures.js";

async function debate(topic = "Should #459 ship before #461?") {
  return seatedDebate(await cast(), await keyOf("relay"), { topic });
}

const headAt = (l: MemoryLedger, seq: number): Promise<SignedHead> =>
  signHead(l.relay, { table: "t-459", seq, link: l.entries[seq - 1]!.link });

function exportUpTo(l: MemoryLedger, seq: number, head: SignedHead): string {
  return exportText({ table: "t-459", relay: l.relay.publicKeyText }, l.entries.slice(0, seq), [head]);
}

/** A broadcast table whose relay limit is 5 entries past its joins, passed until it closes as ledger_full; its export. */
async function filledToLimit() {
  const k = await cast();
  const config = broadcastConfig(k, {
    topology: { kind: "broadcast", order: ["a", "b", "c"] },
    termination: { any: [{ max_entries: 1000 }] },
  });
  const t = await TestTable.open(config, ["a", "b", "c"], k);
  t.l.maxEntries = t.state.seq + 5;
  while (!t.state.closed) await t.write(t.holder!, { kind: "pass" });
  return { k, t, text: await t.exportText() };
}

describe("verifyExportText", () => {
  it("is CLEAN for a whole export with the pinned key, counting a held copy of its own head once", async () => {
    const l = await debate();
    const head = await l.head();
    const text = exportUpTo(l, l.entries.length, head);
    const report = await verifyExportText(text, { relayKey: l.relay.publicKeyText, held: [head] });
    expect(report.verdict).toBe("CLEAN");
    expect(report.coverage.heads).toBe(1);
    expect(exportIdentity(text)).toEqual({ table: "t-459", relay: l.relay.publicKeyText });
  });

  it("replays with the ledger limit the relay published (maxEntries), where the default limit would refute its ledger_full close", async () => {
    const { k, t, text } = await filledToLimit();
    expect(
      (await verifyExportText(text, { relayKey: k.relay.publicKeyText, maxEntries: t.l.maxEntries })).verdict,
    ).toBe("CLEAN");
    expect((await verifyExportText(text, { relayKey: k.relay.publicKeyText })).verdict).toBe("REFUTED");
  });

  it("is given the relay's published limit by openTable, so a table's export with a ledger_full close at that limit is CLEAN", async () => {
    const { k, t, text } = await filledToLimit();
    const served = (limits: Record<string, number>) =>
      new HttpClient({
        url: "http://relay.test",
        fetch: async (url) =>
          new Response(
            String(url).endsWith("/export")
              ? text
              : JSON.stringify({ protocol: "trestle/0.1", relay_key: k.relay.publicKeyText, limits }),
          ),
      });
    const reader = { signer: k.ops, as: { owner: "ops" } };
    const published = await openTable({
      relay: served({ entries: t.l.maxEntries }),
      table: t.state.table,
      home: mkdtempSync(join(tmpdir(), "trestle-verify-")),
    });
    expect((await published.exportLedger(reader)).report.verdict).toBe("CLEAN");
    const unpublished = await openTable({
      relay: served({}),
      table: t.state.table,
      home: mkdtempSync(join(tmpdir(), "trestle-verify-")),
    });
    expect((await unpublished.exportLedger(reader)).report.verdict).toBe("REFUTED");
  });

  it("hands back the export it verified with its parse, so a caller (trestle verify, a transcript) does not parse the text again", async () => {
    const { k, t, text } = await filledToLimit();
    const relay = new HttpClient({
      url: "http://relay.test",
      fetch: async (url) =>
        new Response(
          String(url).endsWith("/export")
            ? text
            : JSON.stringify({
                protocol: "trestle/0.1",
                relay_key: k.relay.publicKeyText,
                limits: { entries: t.l.maxEntries },
              }),
        ),
    });
    const client = await openTable({
      relay,
      table: t.state.table,
      home: mkdtempSync(join(tmpdir(), "trestle-verify-")),
    });
    const exported = await client.exportLedger({ signer: k.ops, as: { owner: "ops" } });
    expect(exported.text).toBe(text);
    expect(exported.parsed).toEqual(parseExport(text));
    expect(exported.report.verdict).toBe("CLEAN");
  });

  describe("when the client holds a head the export contradicts", () => {
    it("refutes an export shorter than a head it holds (truncation)", async () => {
      const l = await debate();
      const text = exportUpTo(l, 4, await headAt(l, 4));
      const report = await verifyExportText(text, { relayKey: l.relay.publicKeyText, held: [await l.head()] });
      expect(report.verdict).toBe("REFUTED");
      expect(report.refuted?.reason).toMatch(/^truncated/);
    });

    it("refutes an export from another history under the same key (fork)", async () => {
      const l = await debate();
      const other = await debate("a different history");
      const text = exportUpTo(other, other.entries.length, await other.head());
      const report = await verifyExportText(text, { relayKey: l.relay.publicKeyText, held: [await headAt(l, 3)] });
      expect(report.verdict).toBe("REFUTED");
      expect(report.refuted?.reason).toMatch(/^fork/);
    });

    it("ignores held heads of other tables", async () => {
      const l = await debate();
      const foreign = await signHead(l.relay, { table: "t-other", seq: 99, link: "ab".repeat(32) });
      const report = await verifyExportText(exportUpTo(l, l.entries.length, await l.head()), {
        relayKey: l.relay.publicKeyText,
        held: [foreign],
      });
      expect(report.verdict).toBe("CLEAN");
    });
  });

  it("is INCONCLUSIVE without a pinned key", async () => {
    const l = await debate();
    expect((await verifyExportText(exportUpTo(l, l.entries.length, await l.head()))).verdict).toBe("INCONCLUSIVE");
  });
});
