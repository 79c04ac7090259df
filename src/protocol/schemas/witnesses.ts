/**
 * A table's witnesses (docs/SPEC.md §12, decision 0396): the C2SP tlog-witness services its
 * owners trust to cosign its checkpoints, and how many cosignatures a reader requires (k of n).
 * Part of the signed table config; the relay submits each checkpoint to every witness listed.
 */
import * as z from "zod";
import { SIG_TYPE_COSIGNATURE } from "../tlog/cosignature.js";
import { parseVerifierKey } from "../tlog/note.js";

/** At most this many witnesses per table. */
export const MAX_WITNESSES = 8;

/** A cosignature verifier key in the note format, `<name>+<8 hex>+base64(0x04 || Ed25519 key)` (tlog-cosignature). */
export const WitnessKeySchema = z
  .string()
  .max(512)
  .refine(
    (key) => {
      try {
        return parseVerifierKey(key).type === SIG_TYPE_COSIGNATURE;
      } catch {
        return false;
      }
    },
    { message: "a cosignature verifier key <name>+<8 hex>+base64(0x04 || 32-byte Ed25519 key)" },
  );

/** One witness: its key (whose name is the witness's) and its submission prefix (POST <url>/add-checkpoint). */
export const WitnessSchema = z.strictObject({
  key: WitnessKeySchema,
  url: z.url({ protocol: /^https?$/ }).max(512),
});
export type Witness = z.infer<typeof WitnessSchema>;

/** The table's witnesses and the policy: a checkpoint counts as witnessed with cosignatures of at least `k` of them. */
export const WitnessesSchema = z
  .strictObject({
    k: z.int().min(1).max(MAX_WITNESSES),
    list: z.array(WitnessSchema).min(1).max(MAX_WITNESSES),
  })
  .refine((w) => w.k <= w.list.length, { message: "k is at most the number of witnesses" })
  .refine((w) => new Set(w.list.map((x) => witnessName(x))).size === w.list.length, {
    message: "each witness's key has its own name",
  });
export type Witnesses = z.infer<typeof WitnessesSchema>;

/** A witness's name: its key's name (the name on its cosignature lines). */
export function witnessName(witness: Witness): string {
  return witness.key.slice(0, witness.key.indexOf("+"));
}
