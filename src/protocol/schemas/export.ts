/**
 * The portable ledger export (docs/SPEC.md §8): JSON Lines in canonical form, first a header, then
 * one line per entry in seq order (an entry the reader may not see appears as its leaf hash only;
 * a truncated entry is followed by its original body), then the relay-signed heads the exporter holds. Every byte is covered by a check: the header names only
 * the table and relay key, both of which the entries and heads must match.
 */
import * as z from "zod";
import { EntrySchema } from "./entry.js";
import { SignedHeadSchema } from "./head.js";
import { BodySchema, PublicKeySchema, SeqSchema, Sha256Schema, TableIdSchema } from "./primitives.js";

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

/** The full body of an entry the relay truncated; the seat signed its hash. */
export const OriginalBodySchema = z.strictObject({ seq: SeqSchema, body: BodySchema });
export type OriginalBody = z.infer<typeof OriginalBodySchema>;

/** Every later line of an export. */
export const ExportLineSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("entry"), entry: EntrySchema }),
  z.strictObject({ type: z.literal("hidden"), hidden: HiddenEntrySchema }),
  z.strictObject({ type: z.literal("original"), original: OriginalBodySchema }),
  z.strictObject({ type: z.literal("head"), head: SignedHeadSchema }),
]);
export type ExportLine = z.infer<typeof ExportLineSchema>;
