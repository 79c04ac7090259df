/**
 * The portable ledger export (docs/SPEC.md §8): JSON Lines, first a header, then one line per
 * entry in seq order (an entry the reader may not see appears as its leaf hash only), then the
 * relay-signed heads the exporter holds. Every byte is covered by a check: the header names only
 * the table and relay key, both of which the entries and heads must match.
 */
import { z } from "zod";
import { EntrySchema } from "./entry.js";
import { SignedHeadSchema } from "./head.js";
import { PublicKeySchema, SeqSchema, Sha256Schema, TableIdSchema } from "./primitives.js";

/** First line of an export. */
export const ExportHeaderSchema = z.strictObject({
  type: z.literal("trestle-export"),
  version: z.literal(1),
  table: TableIdSchema,
  relay: PublicKeySchema,
});
export type ExportHeader = z.infer<typeof ExportHeaderSchema>;

/** An entry the reader may not see: its seq and leaf hash, enough to check the chain through it. */
export const HiddenEntrySchema = z.strictObject({ seq: SeqSchema, leaf: Sha256Schema });
export type HiddenEntry = z.infer<typeof HiddenEntrySchema>;

/** Every later line of an export. */
export const ExportLineSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("entry"), entry: EntrySchema }),
  z.strictObject({ type: z.literal("hidden"), hidden: HiddenEntrySchema }),
  z.strictObject({ type: z.literal("head"), head: SignedHeadSchema }),
]);
export type ExportLine = z.infer<typeof ExportLineSchema>;
