/**
 * A self-contained proof that one entry is in a table's log (docs/CLIENT.md, decision 0397): the
 * entry as the relay stored it, its RFC 9162 inclusion proof and the relay's signed checkpoint
 * (with any witness cosignatures), checked offline against a relay key the checker trusts. The
 * entry's leaf is recomputed from the entry; the checkpoint's origin must name the proof's table.
 */
import * as z from "zod";
import { fromBase64url, fromHex } from "../encoding/bytes.js";
import { schemaError, TrestleError } from "../errors.js";
import { leafOf } from "../ledger/chain.js";
import { EntrySchema } from "../schemas/entry.js";
import { PublicKeySchema, TableIdSchema } from "../schemas/primitives.js";
import { fromBase64 } from "./base64.js";
import {
  checkpointRoot,
  parseCheckpoint,
  parseTableOrigin,
  RootHashBase64Schema,
  type Checkpoint,
} from "./checkpoint.js";
import { cosignatureTimestamp, cosignatureVerifierFromKey } from "./cosignature.js";
import { ed25519NoteVerifier, openNote, parseNote, type NoteSignature, type NoteVerifier } from "./note.js";
import { MAX_PROOF_HASHES, verifyInclusion } from "./proofs.js";

/** The proof file's format tag. */
export const ENTRY_PROOF_FORMAT = "trestle-entry-proof/1";

/** A proof file: the entry, its inclusion proof (base64 hashes, leaf to root) and the signed checkpoint note it is proven against. */
export const EntryProofSchema = z.strictObject({
  format: z.literal(ENTRY_PROOF_FORMAT),
  table: TableIdSchema,
  relay_key: PublicKeySchema,
  entry: EntrySchema,
  inclusion: z.array(RootHashBase64Schema).max(MAX_PROOF_HASHES),
  checkpoint: z.string().max(65536),
});
export type EntryProof = z.infer<typeof EntryProofSchema>;

/** What a proof shows once checked: the entry's table and seq, the checkpoint it is in, and the note's signatures the relay key did not make (witness cosignatures, unverified here). */
export interface ProvenEntry {
  table: string;
  seq: number;
  checkpoint: Checkpoint;
  others: readonly NoteSignature[];
}

/** A proof file parsed; E_SCHEMA (or E_TOO_LARGE) naming the first bad field. */
export function parseEntryProof(value: unknown): EntryProof {
  const parsed = EntryProofSchema.safeParse(value);
  if (!parsed.success) throw schemaError(parsed.error.issues, "entry proof");
  return parsed.data;
}

/** The verifier of a table log's checkpoints by `relayKey` (base64url), under the origin a note's first line names; E_WRONG_TABLE when that origin is not `table`'s. */
export function checkpointVerifier(note: string, table: string, relayKey: string): NoteVerifier {
  const origin = parseNote(note).text.split("\n", 1)[0]!;
  const named = parseTableOrigin(origin);
  if (named?.table !== table)
    throw new TrestleError("E_WRONG_TABLE", `the checkpoint is for log ${origin}, not table ${table}`, {
      origin,
      table,
    });
  return ed25519NoteVerifier(origin, fromBase64url(relayKey));
}

/** The checkpoint a note holds, once `relayKey` verified it as `table`'s: E_BAD_SIGNATURE, E_WRONG_TABLE or E_SCHEMA otherwise. */
export async function openCheckpoint(
  note: string,
  table: string,
  relayKey: string,
): Promise<{ checkpoint: Checkpoint; others: readonly NoteSignature[] }> {
  const opened = await openNote(note, [checkpointVerifier(note, table, relayKey)]);
  return { checkpoint: parseCheckpoint(opened.text), others: opened.unverified };
}

/**
 * Checks a proof against `relayKey` (the key the checker trusts, base64url): the checkpoint's
 * signature (E_BAD_SIGNATURE), its origin and the entry naming the proof's table (E_WRONG_TABLE),
 * the entry's leaf (E_REFUTED when it does not hash to its `leaf`) and the inclusion proof
 * (E_REFUTED when it does not lead to the checkpoint's root).
 */
export async function verifyEntryProof(proof: EntryProof, relayKey: string): Promise<ProvenEntry> {
  if (proof.relay_key !== relayKey)
    throw new TrestleError("E_RELAY_KEY", "the proof names another relay key than the one trusted", {
      relay_key: proof.relay_key,
    });
  const { checkpoint, others } = await openCheckpoint(proof.checkpoint, proof.table, relayKey);
  const entry = proof.entry;
  if (entry.table !== proof.table)
    throw new TrestleError("E_WRONG_TABLE", `the entry is of table ${entry.table}, not ${proof.table}`);
  if (leafOf(entry) !== entry.leaf)
    throw new TrestleError("E_REFUTED", `entry ${entry.seq} does not hash to its leaf`, { seq: entry.seq });
  if (entry.seq > checkpoint.size)
    throw new TrestleError("E_REFUTED", `entry ${entry.seq} is past the checkpoint's ${checkpoint.size} entries`, {
      seq: entry.seq,
    });
  const path = proof.inclusion.map(fromBase64);
  if (!verifyInclusion(entry.seq - 1, checkpoint.size, fromHex(entry.leaf), path, checkpointRoot(checkpoint))) {
    throw new TrestleError(
      "E_REFUTED",
      `the inclusion proof of entry ${entry.seq} does not lead to the checkpoint's root`,
      { seq: entry.seq, size: checkpoint.size },
    );
  }
  return { table: proof.table, seq: entry.seq, checkpoint, others };
}

/** One witness whose cosignature on a checkpoint verified: its name and the time it signed (POSIX seconds). */
export interface WitnessedBy {
  name: string;
  time: number;
}

/**
 * The witnesses among `keys` (cosignature verifier keys, type 0x04) whose cosignature of the
 * checkpoint `note` verifies (`proven`: the note opened, an entry's proof or a checkpoint read now), and whether at least `k` did (the witness policy, k of n). A cosignature
 * that names a given key but does not verify refuses the whole checkpoint (E_BAD_SIGNATURE), as
 * openNote does; a key with no line on the note is simply not counted.
 */
export async function witnessPolicy(
  proven: Pick<ProvenEntry, "others">,
  note: string,
  keys: readonly string[],
  k: number,
): Promise<{ witnessed: WitnessedBy[]; met: boolean }> {
  const verifiers = keys.map(cosignatureVerifierFromKey);
  const named = proven.others.filter((s) => verifiers.some((v) => v.name === s.name && v.keyId === s.keyId));
  if (named.length === 0) return { witnessed: [], met: k <= 0 };
  const opened = await openNote(note, verifiers);
  const witnessed = opened.verified.map((s) => ({ name: s.name, time: cosignatureTimestamp(s.signature) ?? 0 }));
  return { witnessed, met: witnessed.length >= k };
}
