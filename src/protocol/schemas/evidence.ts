/**
 * Evidence that a relay misbehaved, as a client saw it (docs/SPEC.md §8.3): a fork (two signed
 * heads, or a signed head and the chain a client verified, that disagree) or a truncation (a head
 * the relay presented as current that is older than one it signed before). Clients keep it next
 * to the head they held, so no later answer from the relay can make it go away.
 */
import * as z from "zod";
import { SignedHeadSchema } from "./head.js";
import { TableIdSchema } from "./primitives.js";

/**
 * One piece of evidence. `heads[0]` is the head the client held (its own verified view); a second
 * head is the relay's conflicting one. With two heads at one seq it is a transferable fork proof;
 * otherwise the relay's entries, which chain to a different link, are the other half.
 */
export const EvidenceSchema = z.strictObject({
  kind: z.enum(["fork", "truncation"]),
  table: TableIdSchema,
  seq: z.int().min(0),
  heads: z.array(SignedHeadSchema).min(1).max(2),
  message: z.string().max(1000),
});
export type Evidence = z.infer<typeof EvidenceSchema>;
