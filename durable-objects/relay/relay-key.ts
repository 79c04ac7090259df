/**
 * The relay's signing key: the RELAY_SIGNING_KEY secret (base64url 32-byte seed) when set,
 * otherwise the seed RelayDO generated. Cached per isolate.
 */
import { fromBase64url } from "../../src/protocol/encoding/bytes.js";
import { ed25519, type Signer } from "../../src/protocol/signing/crypto.js";
import { TrestleError } from "../../src/protocol/errors.js";
import { relaySigningKey } from "../settings.js";
import { relayKeyObject } from "../stubs.js";

let cached: { source: string; signer: Promise<Signer> } | undefined;

/** The relay signer for this deployment. */
export function relaySigner(env: Env): Promise<Signer> {
  const source = relaySigningKey(env) ?? "relay-do";
  if (cached?.source !== source) cached = { source, signer: load(env) };
  const current = cached;
  current.signer.catch(() => {
    if (cached === current) cached = undefined;
  });
  return current.signer;
}

async function load(env: Env): Promise<Signer> {
  const text = relaySigningKey(env) ?? (await relayKeyObject(env).seed());
  let seed: Uint8Array;
  try {
    seed = fromBase64url(text.trim());
  } catch {
    throw new TrestleError("E_UNAVAILABLE", "RELAY_SIGNING_KEY is not a base64url 32-byte seed");
  }
  if (seed.length !== 32) throw new TrestleError("E_UNAVAILABLE", "RELAY_SIGNING_KEY must be 32 bytes");
  return (await ed25519()).signer(seed);
}
