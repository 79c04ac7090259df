/**
 * Mirrors (docs/SPEC.md §8.4): the verified pages a replica is fed with, the evidence a mirror
 * keeps against the relay it follows, the pages it refused, and what a replica reports about itself.
 */
import * as z from "zod";
import { LIMITS } from "../limits/limits.js";
import { EntrySchema } from "./entry.js";
import { EvidenceSchema } from "./evidence.js";
import { HiddenEntrySchema, OriginalBodySchema } from "./export.js";
import { SignedHeadSchema } from "./head.js";
import { MillisSchema, PublicKeySchema, SeqSchema, Sha256Schema, TableIdSchema } from "./primitives.js";

/**
 * POST /tables/:id/replica: one verified chain extension. `items` are full entries continuing the
 * replica's chain (entries it already holds may be sent again; they must be the same), with the
 * originals of truncated ones, ending at `head`, signed by the relay holding custody at that seq.
 */
export const ReplicaPageSchema = z.strictObject({
  items: z.array(EntrySchema).max(LIMITS.entries),
  originals: z.array(OriginalBodySchema).max(LIMITS.entries),
  head: SignedHeadSchema,
});
export type ReplicaPage = z.infer<typeof ReplicaPageSchema>;

/**
 * Evidence a mirror keeps against the relay it follows: the signed heads (its own held one first)
 * and `branch`, the leaves of the other chain from where it left the mirror's up to the second
 * head, so anyone holding the mirror's ledger can check that the relay signed both.
 */
export const MirrorEvidenceSchema = z.strictObject({
  recorded_at: MillisSchema,
  evidence: EvidenceSchema,
  branch: z.array(HiddenEntrySchema).max(LIMITS.entries),
});
export type MirrorEvidence = z.infer<typeof MirrorEvidenceSchema>;

/** How many refused pages a mirror keeps a record of (the newest; older ones are dropped). */
export const MIRROR_REFUSALS_KEPT = 16;

/**
 * A page a mirror refused as not verifying (E_REFUTED): when, the first entry that failed (null:
 * the page as a whole) and why. It proves nothing about the relay the mirror follows (anyone may
 * send pages, so its sender may have altered it) and never stops the mirror taking later pages.
 */
export const MirrorRefusalSchema = z.strictObject({
  recorded_at: MillisSchema,
  seq: SeqSchema.nullable(),
  reason: z.string().max(1000),
});
export type MirrorRefusal = z.infer<typeof MirrorRefusalSchema>;

/**
 * GET /tables/:id/replica (and the answer to a page): whether this relay holds the table as a
 * read-only mirror, the relay key holding custody, its tip, the newest head that key signed that
 * this relay holds, any evidence kept, and the newest pages it refused, oldest first.
 */
export const ReplicaStatusSchema = z.strictObject({
  table: TableIdSchema,
  mirror: z.boolean(),
  relay: PublicKeySchema,
  seq: SeqSchema,
  link: Sha256Schema,
  head: SignedHeadSchema,
  evidence: z.array(MirrorEvidenceSchema),
  refused: z.array(MirrorRefusalSchema).max(MIRROR_REFUSALS_KEPT),
});
export type ReplicaStatus = z.infer<typeof ReplicaStatusSchema>;
