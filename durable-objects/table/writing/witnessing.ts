/**
 * Submitting the table's checkpoint to the witnesses its config names (docs/SPEC.md §12, decision
 * 0396), from the alarm, batched: at most once per WITNESS_BATCH_MS after writes, never per write.
 * Each witness gets tlog-witness's add-checkpoint body (the size it last cosigned and a consistency
 * proof from there); a 409 with the size it holds is answered once more from that size. A
 * cosignature is kept only when it verifies under the witness's configured key, one row per
 * witness (its newest), and /checkpoint serves it while it is for exactly the current checkpoint.
 */
import { TrestleError } from "../../../src/protocol/errors.js";
import { parseCheckpoint } from "../../../src/protocol/tlog/checkpoint.js";
import { cosignatureVerifierFromKey } from "../../../src/protocol/tlog/cosignature.js";
import { openNote, parseNote } from "../../../src/protocol/tlog/note.js";
import { consistencyProof } from "../../../src/protocol/tlog/proofs.js";
import { formatAddCheckpoint, parseTreeSizeBody } from "../../../src/protocol/tlog/witness.js";
import { witnessName, type Witness } from "../../../src/protocol/schemas/witnesses.js";
import { ensureTable, hasTable } from "../storage/schema.js";
import type { TableContext } from "../context.js";
import { originHost, signedCheckpoint } from "../reading/tlog.js";
import type { WitnessSubmit } from "./witness-submit.js";

/** Writes are gathered this long before the checkpoint goes to the witnesses. */
export const WITNESS_BATCH_MS = 2_000;

/** After a witness could not be reached or refused, the alarm tries again this much later. */
export const WITNESS_RETRY_MS = 60_000;

/** Whether some configured witness has not cosigned the tree as it is now (and the table's origin host is known). */
export function witnessesBehind(t: TableContext): boolean {
  const witnesses = t.state?.config.witnesses;
  if (!witnesses || t.replica.mirror || t.ledger.seq === 0 || originHost(t.storage.sql) === undefined) return false;
  return witnesses.list.some((w) => cosignedSize(t, witnessName(w)) !== t.ledger.seq);
}

/** Submits the checkpoint now to every witness behind it; true when every one cosigned it. */
export async function submitToWitnesses(t: TableContext, submit: WitnessSubmit): Promise<boolean> {
  const host = originHost(t.storage.sql);
  const witnesses = t.state?.config.witnesses;
  if (!witnesses || host === undefined) return true;
  const note = await signedNoteOnly(t, host);
  const checkpoint = { size: parseCheckpoint(parseNote(note).text).size, note };
  let all = true;
  for (const witness of witnesses.list) {
    if (cosignedSize(t, witnessName(witness)) === checkpoint.size) continue;
    try {
      await submitOne(t, submit, witness, checkpoint);
    } catch (error) {
      all = false;
      console.error(
        `witness ${witnessName(witness)} did not cosign table ${t.state?.table ?? ""} at ${checkpoint.size}`,
        error,
      );
    }
  }
  return all;
}

/** The checkpoint being submitted: its size and the relay's signed note of it. */
interface Submitted {
  size: number;
  note: string;
}

async function submitOne(
  t: TableContext,
  submit: WitnessSubmit,
  witness: Witness,
  checkpoint: Submitted,
): Promise<void> {
  const name = witnessName(witness);
  let old = cosignedSize(t, name) ?? 0;
  for (let attempt = 0; attempt < 2; attempt++) {
    // The tree may have grown meanwhile; its hashes below `checkpoint.size` are the same.
    const proof =
      old === 0 || old >= checkpoint.size ? [] : consistencyProof(old, checkpoint.size, t.ledger.tree.hashSource());
    const response = await submit(witness.url, formatAddCheckpoint({ oldSize: old, proof, note: checkpoint.note }));
    const text = await response.text();
    if (response.status === 409 && /^text\/x\.tlog\.size\b/.test(response.headers.get("content-type") ?? "")) {
      old = parseTreeSizeBody(text);
      if (old > checkpoint.size)
        throw new TrestleError(
          "E_FORK",
          `witness ${name} holds ${old} entries of this log, more than the ${checkpoint.size} here`,
          { witness: name, size: old },
        );
      continue;
    }
    if (response.status !== 200)
      throw new TrestleError("E_UNAVAILABLE", `witness ${name} answered ${response.status}: ${text.slice(0, 200)}`);
    return keepCosignature(t, witness, checkpoint, text);
  }
  throw new TrestleError("E_UNAVAILABLE", `witness ${name} answered 409 twice`);
}

/** Keeps the line of `lines` that verifies as `witness`'s cosignature of the checkpoint; E_BAD_SIGNATURE when none does. */
async function keepCosignature(t: TableContext, witness: Witness, checkpoint: Submitted, lines: string): Promise<void> {
  const text = parseNote(checkpoint.note).text;
  const opened = await openNote(`${text}\n${lines.endsWith("\n") ? lines : `${lines}\n`}`, [
    cosignatureVerifierFromKey(witness.key),
  ]);
  ensureTable(t.storage.sql, "tlog_cosignatures");
  t.storage.sql.exec(
    "INSERT OR REPLACE INTO tlog_cosignatures (witness, size, checkpoint, line) VALUES (?, ?, ?, ?)",
    witnessName(witness),
    checkpoint.size,
    text,
    opened.verified[0]!.line,
  );
}

/** The size the witness last cosigned for this table, or undefined when it never did. */
function cosignedSize(t: TableContext, name: string): number | undefined {
  const row = hasTable(t.storage.sql, "tlog_cosignatures")
    ? t.storage.sql.exec("SELECT size FROM tlog_cosignatures WHERE witness = ?", name).toArray()[0]
    : undefined;
  return row ? Number(row.size) : undefined;
}

/** The relay's signed note of the checkpoint now, without the cosignatures kept for it. */
async function signedNoteOnly(t: TableContext, host: string): Promise<string> {
  const note = await signedCheckpoint(t, host);
  const parsed = parseNote(note);
  return `${parsed.text}\n${parsed.signatures[0]!.line}\n`;
}
