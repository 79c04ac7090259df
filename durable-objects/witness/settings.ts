/**
 * The witness Worker's settings (wrangler.witness.toml, docs/SELF-HOST.md "A witness"): WITNESS_NAME,
 * its cosigner key name; WITNESS_SIGNING_KEY, a secret base64url 32-byte Ed25519 seed; WITNESS_LOGS,
 * the logs it witnesses as `ORIGIN=VKEY` lines. Parsed once per isolate and value; a missing or
 * malformed one is E_UNAVAILABLE, never a cosignature.
 */
import { fromBase64url } from "../../src/protocol/encoding/bytes.js";
import { TrestleError } from "../../src/protocol/errors.js";
import { KeyNameSchema } from "../../src/protocol/tlog/note.js";
import { logEntryLines, witnessedLogs, type WitnessedLogs } from "../../src/protocol/tlog/witness-logs.js";
import type { WitnessKey } from "../../src/protocol/tlog/witness-judge.js";
import { ed25519 } from "../../src/protocol/signing/crypto.js";

/** The witness Worker's three settings, as its env holds them. */
export interface WitnessSettingsEnv {
  readonly WITNESS_NAME?: string;
  readonly WITNESS_SIGNING_KEY?: string;
  readonly WITNESS_LOGS?: string;
}

/** The witness's settings, parsed. */
export interface WitnessSettings {
  readonly witness: WitnessKey;
  readonly logs: WitnessedLogs;
}

let cached: { source: string; settings: Promise<WitnessSettings> } | undefined;

/** The settings of `env`; the same promise while the values stay the same. */
export function witnessSettings(env: WitnessSettingsEnv): Promise<WitnessSettings> {
  const source = JSON.stringify([env.WITNESS_NAME, env.WITNESS_SIGNING_KEY, env.WITNESS_LOGS]);
  if (cached?.source !== source) cached = { source, settings: load(env) };
  return cached.settings;
}

async function load(env: WitnessSettingsEnv): Promise<WitnessSettings> {
  const name = KeyNameSchema.safeParse(env.WITNESS_NAME);
  if (!name.success)
    throw new TrestleError("E_UNAVAILABLE", "WITNESS_NAME must be a key name: no spaces, no plus signs");
  let seed: Uint8Array | undefined;
  try {
    seed = fromBase64url((env.WITNESS_SIGNING_KEY ?? "").trim());
  } catch {
    seed = undefined;
  }
  if (seed?.length !== 32)
    throw new TrestleError(
      "E_UNAVAILABLE",
      "WITNESS_SIGNING_KEY must be a base64url 32-byte seed (wrangler secret put WITNESS_SIGNING_KEY)",
    );
  let logs: WitnessedLogs;
  try {
    logs = witnessedLogs(logEntryLines(env.WITNESS_LOGS ?? ""));
  } catch (error) {
    throw new TrestleError("E_UNAVAILABLE", `WITNESS_LOGS: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { witness: { name: name.data, signer: await (await ed25519()).signer(seed) }, logs };
}
