/**
 * The logs a witness cosigns (C2SP tlog-witness: "each witness is configured with a list of
 * supported log public keys"): `ORIGIN=VKEY` entries, the origin of a checkpoint and a signed-note
 * Ed25519 verifier key of the log, as `trestle witness --log` and the Worker's WITNESS_LOGS take them.
 */
import { TrestleError } from "../errors.js";
import { CheckpointSchema } from "./checkpoint.js";
import { ed25519VerifierFromKey, type NoteVerifier } from "./note.js";

/** The logs a witness knows: each origin with the verifiers of its keys (one or more). */
export type WitnessedLogs = ReadonlyMap<string, readonly NoteVerifier[]>;

/** One `ORIGIN=VKEY` entry: split at the first `=`; E_SCHEMA when the origin is not a checkpoint origin or the key not an Ed25519 verifier key. */
export function parseLogEntry(entry: string): { origin: string; verifier: NoteVerifier } {
  const cut = entry.indexOf("=");
  if (cut <= 0) throw new TrestleError("E_SCHEMA", `a witnessed log is ORIGIN=VKEY, not "${entry}"`);
  const origin = entry.slice(0, cut);
  if (!CheckpointSchema.shape.origin.safeParse(origin).success)
    throw new TrestleError("E_SCHEMA", `"${origin}" is not a checkpoint origin`);
  return { origin, verifier: ed25519VerifierFromKey(entry.slice(cut + 1)) };
}

/** The logs of `ORIGIN=VKEY` entries; entries naming the same origin add keys to it. */
export function witnessedLogs(entries: readonly string[]): WitnessedLogs {
  const logs = new Map<string, NoteVerifier[]>();
  for (const entry of entries) {
    const { origin, verifier } = parseLogEntry(entry);
    logs.set(origin, [...(logs.get(origin) ?? []), verifier]);
  }
  return logs;
}

/** The entries of a list with one per line; blank lines and lines starting with `#` are skipped. */
export function logEntryLines(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}
