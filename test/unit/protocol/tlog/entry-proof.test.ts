import { describe, expect, it } from "vitest";
import { ed25519, fromHex, toBase64url, utf8 } from "../../../../src/protocol/index.js";
import { toBase64 } from "../../../../src/protocol/tlog/base64.js";
import { checkpointOf, formatCheckpoint, tableOrigin } from "../../../../src/protocol/tlog/checkpoint.js";
import { cosignatureSigner, SIG_TYPE_COSIGNATURE } from "../../../../src/protocol/tlog/cosignature.js";
import {
  ENTRY_PROOF_FORMAT,
  parseEntryProof,
  verifyEntryProof,
  witnessPolicy,
  type EntryProof,
} from "../../../../src/protocol/tlog/entry-proof.js";
import { ed25519NoteSigner, formatVerifierKey, signNoteText } from "../../../../src/protocol/tlog/note.js";
import { inclusionProof, memoryHashSource, rangeHash } from "../../../../src/protocol/tlog/proofs.js";
import { cast, debateConfig, MemoryLedger } from "../../../support/table-fixture.js";
import { refusalCode } from "../../../support/refused.js";

/** A three-entry table's proof of entry 2, its checkpoint signed by the relay and cosigned by witnesses w1 and w2 (w3 never saw it). */
async function fixture() {
  const impl = await ed25519();
  const k = await cast();
  const ledger = new MemoryLedger(k.relay);
  await ledger.create(k.ops, "ops", debateConfig(k, { id: "proof-t" }));
  await ledger.join(k.tao, "tao", "bot-tao", k.botTao);
  const entries = ledger.entries;
  const source = memoryHashSource(entries.map((e) => fromHex(e.leaf)));
  const origin = tableOrigin("relay.example", "proof-t");
  const text = formatCheckpoint(checkpointOf(origin, entries.length, rangeHash(0, entries.length, source)));
  const witnesses = await Promise.all(
    [1, 2, 3].map(async (n) => ({ name: `w${n}.example`, signer: await impl.signer(new Uint8Array(32).fill(20 + n)) })),
  );
  const note = await signNoteText(text, [
    ed25519NoteSigner(origin, k.relay),
    ...witnesses.slice(0, 2).map((w, i) => cosignatureSigner(w.name, w.signer, 1767225600 + i)),
  ]);
  const proof: EntryProof = parseEntryProof({
    format: ENTRY_PROOF_FORMAT,
    table: "proof-t",
    relay_key: toBase64url(k.relay.publicKey),
    entry: entries[1],
    inclusion: inclusionProof(1, entries.length, source).map(toBase64),
    checkpoint: note,
  });
  const keys = witnesses.map((w) => formatVerifierKey(w.name, SIG_TYPE_COSIGNATURE, w.signer.publicKey));
  return { proof, keys, relayKey: toBase64url(k.relay.publicKey) };
}

describe("an entry proof", () => {
  it("verifies against the relay key and counts the witnesses whose cosignatures verify, k of n", async () => {
    const { proof, keys, relayKey } = await fixture();
    const proven = await verifyEntryProof(proof, relayKey);
    expect(proven).toMatchObject({ table: "proof-t", seq: 2, checkpoint: { origin: "relay.example/tables/proof-t" } });
    expect(proven.others.map((s) => s.name)).toEqual(["w1.example", "w2.example"]);
    const two = await witnessPolicy(proven, proof.checkpoint, keys, 2);
    expect(two).toEqual({
      witnessed: [
        { name: "w1.example", time: 1767225600 },
        { name: "w2.example", time: 1767225601 },
      ],
      met: true,
    });
    expect((await witnessPolicy(proven, proof.checkpoint, keys, 3)).met).toBe(false);
    expect(await witnessPolicy(proven, proof.checkpoint, keys.slice(2), 1)).toEqual({ witnessed: [], met: false });
  });

  describe("when it does not hold", () => {
    it("refuses another relay key (E_RELAY_KEY), a wrong inclusion path (E_REFUTED) and a forged cosignature (E_BAD_SIGNATURE)", async () => {
      const { proof, keys, relayKey } = await fixture();
      const other = toBase64url((await (await ed25519()).signer(utf8("x".repeat(32)))).publicKey);
      expect(await refusalCode(() => verifyEntryProof(proof, other))).toBe("E_RELAY_KEY");
      const zeroed = proof.inclusion.map(() => toBase64(new Uint8Array(32)));
      expect(await refusalCode(() => verifyEntryProof({ ...proof, inclusion: zeroed }, relayKey))).toBe("E_REFUTED");
      const proven = await verifyEntryProof(proof, relayKey);
      const lines = proof.checkpoint.split("\n");
      const w1 = lines.findIndex((l) => l.startsWith("— w1.example "));
      lines[w1] = `${lines[w1]!.slice(0, -6)}AAAA==`;
      expect(await refusalCode(() => witnessPolicy(proven, lines.join("\n"), keys, 1))).toBe("E_BAD_SIGNATURE");
    });
  });
});
