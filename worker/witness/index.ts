/**
 * The witness Worker (wrangler.witness.toml, deployed alone, docs/SELF-HOST.md "A witness"): the
 * witness app (src/witness/app.ts) over its one Durable Object. Errors leave as the protocol's
 * envelope with tlog-witness's statuses.
 */
import { witnessVerifierKey } from "../../src/protocol/tlog/witness-service.js";
import { witnessApp } from "../../src/witness/app.js";
import { witnessSettings } from "../../durable-objects/witness/settings.js";
import type { WitnessEnv } from "../../durable-objects/witness/witness.js";

export { WitnessDO } from "../../durable-objects/witness/witness.js";

export default witnessApp<WitnessEnv>((env) => {
  const object = () => env.WITNESS.getByName("witness");
  return {
    add: (body) => object().add(body),
    checkpoint: (hash) => object().checkpoint(hash),
    evidence: () => object().evidence(),
    async info() {
      const { witness, logs } = await witnessSettings(env);
      return { name: witness.name, verifier_key: witnessVerifierKey(witness), logs: [...logs.keys()] };
    },
  };
});
