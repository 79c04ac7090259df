/**
 * A witness's add-checkpoint and monitor reads over a store, with tlog-witness's HTTP answers: the
 * one sequence the Worker's Durable Object and `trestle witness` both run (decision 0398). Pure but
 * for the store it is handed; the caller runs each add-checkpoint alone (tlog-witness asks that
 * checking the old size and storing the new checkpoint be atomic).
 */
import { textSha256 } from "../encoding/hash.js";
import { TrestleError, httpStatusOf } from "../errors.js";
import { SIG_TYPE_COSIGNATURE } from "./cosignature.js";
import { NOTE_MAX_CHARS, formatVerifierKey } from "./note.js";
import {
  judgeCheckpoint,
  readSubmission,
  type WitnessEvidence,
  type WitnessKey,
  type WitnessRecord,
} from "./witness-judge.js";
import type { WitnessedLogs } from "./witness-logs.js";
import { formatTreeSizeBody } from "./witness.js";

/** An add-checkpoint body is at most this many characters: a note, 63 proof lines and the old size line. */
export const ADD_CHECKPOINT_MAX_CHARS = NOTE_MAX_CHARS + 64 * 45 + 32;

/** Where a witness keeps its records (one per origin) and its evidence; evidence with the same origin and conflicting note is kept once. */
export interface WitnessStore {
  record(origin: string): WitnessRecord | undefined | Promise<WitnessRecord | undefined>;
  save(record: WitnessRecord): void | Promise<void>;
  keep(evidence: WitnessEvidence): void | Promise<void>;
}

/** An HTTP answer: status, content type and body text. */
export interface WitnessAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** Everything a witness needs to judge: the logs it witnesses, its store, its key and the time (ms). */
export interface WitnessContext {
  readonly logs: WitnessedLogs;
  readonly store: WitnessStore;
  readonly witness: WitnessKey;
  readonly now: number;
}

/** Judges one add-checkpoint body, keeps the new record or the evidence, and answers as tlog-witness says: 200 with the cosignature line, else the refusal's status. */
export async function addCheckpoint(body: string, context: WitnessContext): Promise<WitnessAnswer> {
  try {
    if (body.length > ADD_CHECKPOINT_MAX_CHARS)
      throw new TrestleError("E_TOO_LARGE", `an add-checkpoint body is at most ${ADD_CHECKPOINT_MAX_CHARS} characters`);
    const submission = readSubmission(body);
    const origin = submission.checkpoint.origin;
    const verifiers = context.logs.get(origin);
    const verdict = await judgeCheckpoint({
      submission,
      verifiers,
      record: verifiers ? await context.store.record(origin) : undefined,
      witness: context.witness,
      now: context.now,
    });
    if (verdict.ok) {
      await context.store.save(verdict.record);
      return { status: 200, contentType: "text/plain; charset=utf-8", body: verdict.cosignature };
    }
    if (verdict.evidence) await context.store.keep(verdict.evidence);
    return refusalAnswer(verdict.error);
  } catch (error) {
    if (error instanceof TrestleError && error.code !== "E_INTERNAL") return refusalAnswer(error);
    throw error;
  }
}

/** The answer to a refusal: 409 with the `text/x.tlog.size` body for E_OLD_SIZE, 403 for a bad log signature (tlog-witness), else the code's status with the error envelope. */
export function refusalAnswer(error: TrestleError): WitnessAnswer {
  const size = error.details?.size;
  if (error.code === "E_OLD_SIZE" && typeof size === "number")
    return { status: 409, contentType: "text/x.tlog.size", body: formatTreeSizeBody(size) };
  const status = error.code === "E_BAD_SIGNATURE" ? 403 : httpStatusOf(error.code);
  return { status, contentType: "application/json", body: JSON.stringify(error.toEnvelope()) };
}

/** The origin hash of tlog-witness's monitor path `<origin hash>/checkpoint`: lowercase hex SHA-256 of the origin. */
export function originHash(origin: string): string {
  return textSha256(origin);
}

/** The monitor read: the cosigned checkpoint of the witnessed log whose origin hashes to `hash`, or 404 (E_UNKNOWN_LOG) when none was cosigned. */
export async function cosignedCheckpoint(
  hash: string,
  context: Pick<WitnessContext, "logs" | "store">,
): Promise<WitnessAnswer> {
  const origin = [...context.logs.keys()].find((o) => originHash(o) === hash);
  const record = origin === undefined ? undefined : await context.store.record(origin);
  if (!record)
    return refusalAnswer(
      new TrestleError("E_UNKNOWN_LOG", "this witness has cosigned no checkpoint of a log with this origin hash"),
    );
  return { status: 200, contentType: "text/plain; charset=utf-8", body: record.note };
}

/** The witness's C2SP verifier key: `<name>+<key ID>+base64(0x04 || public key)`, what a log or reader configures to check its cosignatures. */
export function witnessVerifierKey(witness: WitnessKey): string {
  return formatVerifierKey(witness.name, SIG_TYPE_COSIGNATURE, witness.signer.publicKey);
}
