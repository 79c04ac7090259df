/**
 * The `effects` argument of trestle_propose and trestle_decide: the protocol's EffectSchema with
 * `args` listed as a JSON object of JSON values, each typed (JSON Schema cannot express its canonical-size check). The
 * protocol's own schema judges the submission before it is signed (E_SCHEMA / E_TOO_LARGE).
 */
import { z } from "zod";
import { EffectSchema, LIMITS } from "../../protocol/index.js";

/** Effects on owners' resources: each opens (per owner) a task that owner must approve. */
export const EffectsArg = z
  .array(
    EffectSchema.extend({
      args: z
        .record(z.string(), z.json())
        .describe(`arguments, a JSON object (integers only, at most ${LIMITS.effect_args_bytes} bytes)`),
    }),
  )
  .min(1)
  .max(LIMITS.effects)
  .optional()
  .describe(
    'actions on owners\' resources, e.g. [{ owner, resource: "taskboard", action: "create_card", args: {…} }]; each affected owner must approve before anything runs',
  );
