/**
 * `trestle verify --proof FILE`: checks a proof file of `trestle prove` offline (docs/CLIENT.md):
 * the checkpoint signed by the relay key given with --relay-key, or by the file's relay key when
 * this home pinned it for some relay; the entry's leaf; its inclusion proof to the signed root.
 * With --witness KEY,KEY… (tlog-cosignature verifier keys) it also counts the witnesses whose
 * cosignature on the checkpoint verifies, against --witness-k (default: every key given).
 * Exit 0 when it holds, 4 (REFUTED) when the entry or proof does not, 3 for a bad signature or
 * another table's checkpoint, 5 (INCONCLUSIVE) when fewer than k witnesses cosigned, 7 when the
 * relay key is not one to trust.
 */
import { PinStore } from "../client/node.js";
import { parseEntryProof, verifyEntryProof } from "../protocol/tlog/entry-proof.js";
import { PublicKeySchema, TrestleError } from "../protocol/index.js";
import { optional } from "./args.js";
import type { Context } from "./context.js";
import { EXIT, UsageError, type ExitCode } from "./exit.js";
import { readJsonFile } from "./json-file.js";
import { witnessReport, witnessRule } from "./witness-report.js";

/** Verifies the proof file --proof names and prints what it shows and who witnessed it. */
export async function verifyProofFile(ctx: Context, path: string): Promise<ExitCode> {
  const proof = parseEntryProof(readJsonFile(path, "the proof file"));
  const given = optional(ctx.args, "relay-key");
  if (given !== undefined && !PublicKeySchema.safeParse(given).success)
    throw new UsageError("--relay-key must be a 43-char base64url Ed25519 key");
  const relayKey = given ?? (new PinStore(ctx.home).pins(proof.relay_key) ? proof.relay_key : undefined);
  if (relayKey === undefined)
    throw new TrestleError(
      "E_RELAY_KEY",
      `the proof's relay key ${proof.relay_key} is not pinned here; pass --relay-key with a key you trust`,
      { relay_key: proof.relay_key },
    );
  const proven = await verifyEntryProof(proof, relayKey);
  const rule = witnessRule(ctx);
  const policy = await witnessReport(proven, proof.checkpoint, rule);
  const lines = [
    `${policy.met ? "PROVEN" : "PROVEN BY THE RELAY ONLY"}: entry ${proven.seq} of table ${proven.table} is in the log ${proven.checkpoint.origin} at size ${proven.checkpoint.size}, signed by relay key ${relayKey}`,
    policy.line,
  ];
  ctx.out.result(lines, {
    proven: policy.met,
    table: proven.table,
    seq: proven.seq,
    origin: proven.checkpoint.origin,
    size: proven.checkpoint.size,
    root: proven.checkpoint.root,
    relay_key: relayKey,
    witnessed: policy.witnessed,
    witness_k: rule.k,
    other_signatures: proven.others.map((s) => s.name),
  });
  return policy.met ? EXIT.OK : EXIT.INCONCLUSIVE;
}
