/**
 * A witness judging one add-checkpoint request (C2SP tlog-witness), pure: given what it last
 * cosigned for the origin, the log's keys and `now`, either a new record and the tlog-cosignature
 * line, or a refusal with its code, and, when a checkpoint the log signed conflicts with the one
 * cosigned, evidence holding both (docs/SPEC.md §12, decision 0398).
 */
import * as z from "zod";
import { bytesEqual, utf8 } from "../encoding/bytes.js";
import { TrestleError } from "../errors.js";
import type { Signer } from "../signing/crypto.js";
import {
  CheckpointSchema,
  RootHashBase64Schema,
  checkpointRoot,
  parseCheckpoint,
  type Checkpoint,
} from "./checkpoint.js";
import { cosignatureSigner } from "./cosignature.js";
import { fromBase64, toBase64 } from "./base64.js";
import { EMPTY_ROOT } from "./merkle.js";
import { NOTE_MAX_CHARS, openNote, parseNote, signatureLine, type NoteVerifier } from "./note.js";
import { MAX_PROOF_HASHES, verifyConsistency } from "./proofs.js";
import { parseAddCheckpoint, type AddCheckpointRequest } from "./witness.js";

/** The witness's identity: its cosigner key name and its Ed25519 key. */
export interface WitnessKey {
  readonly name: string;
  readonly signer: Signer;
}

/** What a witness keeps per origin: the latest checkpoint it cosigned, as a note with the log's verified signatures and its own cosignature. */
export const WitnessRecordSchema = z.strictObject({
  origin: CheckpointSchema.shape.origin,
  size: CheckpointSchema.shape.size,
  root: RootHashBase64Schema,
  /** The cosignature's time, POSIX seconds. */
  time: z.int().min(1).max(Number.MAX_SAFE_INTEGER),
  /** At most a submitted note and one cosignature line. */
  note: z.string().max(NOTE_MAX_CHARS + 256),
});
export type WitnessRecord = z.infer<typeof WitnessRecordSchema>;

/**
 * Two checkpoints the log signed that the witness could not both cosign. `fork`: the same size with
 * another root, proof enough by itself. `unproven`: the request's consistency proof from the
 * cosigned size fails; the log either forked or sent a wrong proof, which a proof it cannot make settles.
 */
export const WitnessEvidenceSchema = z.strictObject({
  origin: CheckpointSchema.shape.origin,
  kind: z.enum(["fork", "unproven"]),
  /** When the witness refused, POSIX seconds. */
  time: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
  /** The note the witness cosigned (WitnessRecord.note). */
  cosigned: z.string().max(NOTE_MAX_CHARS + 256),
  /** The conflicting note exactly as submitted, its log signature verified. */
  conflicting: z.string().max(NOTE_MAX_CHARS),
  old_size: CheckpointSchema.shape.size,
  proof: z.array(RootHashBase64Schema).max(MAX_PROOF_HASHES),
});
export type WitnessEvidence = z.infer<typeof WitnessEvidenceSchema>;

/** A request read far enough to name its origin; nothing in it is verified yet. */
export interface WitnessSubmission {
  readonly request: AddCheckpointRequest;
  readonly checkpoint: Checkpoint;
}

/** The outcome of judging: a record to keep and the cosignature lines to answer, or a refusal; `evidence` whenever two signed checkpoints conflict. */
export type WitnessVerdict =
  | { readonly ok: true; readonly record: WitnessRecord; readonly cosignature: string }
  | { readonly ok: false; readonly error: TrestleError; readonly evidence?: WitnessEvidence };

/** A request body's parts and its checkpoint; E_SCHEMA for any malformed part, E_TOO_LARGE past a limit. */
export function readSubmission(body: string): WitnessSubmission {
  const request = parseAddCheckpoint(body);
  return { request, checkpoint: parseCheckpoint(parseNote(request.note).text) };
}

/**
 * Judges a submission in tlog-witness's order: unknown origin E_UNKNOWN_LOG; no trusted log
 * signature, or a failing one, E_BAD_SIGNATURE; old size past the checkpoint's E_SCHEMA; old size
 * other than the cosigned size E_OLD_SIZE (details.size); a consistency failure E_INCONSISTENT.
 * Only a verdict that is ok may be stored as the new record; the caller makes judging and storing atomic.
 */
export async function judgeCheckpoint(input: {
  submission: WitnessSubmission;
  verifiers: readonly NoteVerifier[] | undefined;
  record: WitnessRecord | undefined;
  witness: WitnessKey;
  /** Milliseconds since the epoch. */
  now: number;
}): Promise<WitnessVerdict> {
  const { request, checkpoint } = input.submission;
  const refuse = (error: TrestleError, evidence?: WitnessEvidence): WitnessVerdict =>
    evidence ? { ok: false, error, evidence } : { ok: false, error };
  if (!input.verifiers)
    return refuse(
      new TrestleError("E_UNKNOWN_LOG", `this witness does not witness the log "${checkpoint.origin}"`, {
        origin: checkpoint.origin,
      }),
    );
  if (input.record && input.record.origin !== checkpoint.origin)
    throw new TrestleError("E_INTERNAL", "the witness record is another origin's");
  let opened;
  try {
    opened = await openNote(request.note, input.verifiers);
  } catch (error) {
    if (error instanceof TrestleError && error.code === "E_BAD_SIGNATURE") return refuse(error);
    throw error;
  }
  if (request.oldSize > checkpoint.size)
    return refuse(
      new TrestleError("E_SCHEMA", "the old size is larger than the checkpoint's size", {
        old_size: request.oldSize,
        size: checkpoint.size,
      }),
    );
  const root = checkpointRoot(checkpoint);
  if (checkpoint.size === 0 && !bytesEqual(root, EMPTY_ROOT))
    return refuse(new TrestleError("E_INCONSISTENT", "a checkpoint of size 0 has the empty tree's root"));
  const time = Math.floor(input.now / 1000);
  const record = input.record;
  const held = record?.size ?? 0;
  const evidence = (kind: WitnessEvidence["kind"]): WitnessEvidence | undefined =>
    record && {
      origin: checkpoint.origin,
      kind,
      time,
      cosigned: record.note,
      conflicting: request.note,
      old_size: request.oldSize,
      proof: request.proof.map(toBase64),
    };
  const forked = record !== undefined && checkpoint.size === record.size && checkpoint.root !== record.root;
  if (request.oldSize !== held) {
    return refuse(
      new TrestleError("E_OLD_SIZE", `this witness last cosigned size ${held}, not ${request.oldSize}`, { size: held }),
      forked ? evidence("fork") : undefined,
    );
  }
  const heldRoot = record ? fromBase64(record.root) : EMPTY_ROOT;
  if (!verifyConsistency(held, checkpoint.size, request.proof, heldRoot, root)) {
    const message = forked
      ? `the checkpoint has size ${held}, which this witness cosigned with another root`
      : `the consistency proof from size ${held} to ${checkpoint.size} does not verify against what this witness cosigned`;
    return refuse(new TrestleError("E_INCONSISTENT", message, { size: held }), evidence(forked ? "fork" : "unproven"));
  }
  if (time < 1) throw new TrestleError("E_INTERNAL", "the witness clock is before 1970");
  const cosigner = cosignatureSigner(input.witness.name, input.witness.signer, time);
  const line = signatureLine(cosigner.name, cosigner.keyId, await cosigner.sign(utf8(opened.text)));
  const note = `${opened.text}\n${[...opened.verified.map((s) => s.line), line].map((l) => `${l}\n`).join("")}`;
  return {
    ok: true,
    record: { origin: checkpoint.origin, size: checkpoint.size, root: checkpoint.root, time, note },
    cosignature: `${line}\n`,
  };
}
