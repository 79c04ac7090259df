/**
 * RelayDO: one instance (named "relay") holding the relay signing key when no RELAY_SIGNING_KEY
 * secret is set. The key is generated once, at first use, and kept in this object's storage, so a
 * fresh `wrangler deploy` needs no setup.
 */
import { DurableObject } from "cloudflare:workers";
import { toBase64url } from "../../src/protocol/encoding/bytes.js";

const SEED_KEY = "relay_signing_seed";

/** Holder of the generated relay key; `seed()` returns the same seed forever after. */
export class RelayDO extends DurableObject<Env> {
  /** The base64url relay seed, generating and storing it on first call. */
  async seed(): Promise<string> {
    const stored = await this.ctx.storage.get<string>(SEED_KEY);
    if (stored) return stored;
    const seed = toBase64url(crypto.getRandomValues(new Uint8Array(32)));
    await this.ctx.storage.put(SEED_KEY, seed);
    return seed;
  }
}
