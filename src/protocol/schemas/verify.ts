/**
 * The verdict of verifying a ledger (docs/SPEC.md §8.2): CLEAN, REFUTED (first bad seq and why),
 * or INCONCLUSIVE (nothing wrong found, but something could not be checked), with coverage.
 */
import * as z from "zod";

/** What was checked, and how. */
export const CoverageSchema = z.strictObject({
  entries: z.int().min(0),
  by_content: z.int().min(0),
  by_hash: z.int().min(0),
  signatures: z.int().min(0),
  heads: z.int().min(0),
  truncated_checked: z.int().min(0),
  truncated_unchecked: z.int().min(0),
  head_seq: z.int().min(0).nullable(),
  relay_key_pinned: z.boolean(),
  policy_replay: z.enum(["full", "skipped"]),
  /**
   * Only for a table that changed custody (§8.4): each past relay key, the entries it held
   * (`from`..`to`, which only its heads attest) and the newest of its heads checked.
   */
  past_keys: z
    .array(
      z.strictObject({
        relay: z.string(),
        from: z.int().min(1),
        to: z.int().min(1),
        head_seq: z.int().min(1).nullable(),
      }),
    )
    .optional(),
});
export type Coverage = z.infer<typeof CoverageSchema>;

/** A verification report. */
export const VerifyReportSchema = z.strictObject({
  verdict: z.enum(["CLEAN", "REFUTED", "INCONCLUSIVE"]),
  table: z.string().nullable(),
  last_seq: z.int().min(0),
  refuted: z.strictObject({ seq: z.int().nullable(), line: z.int().optional(), reason: z.string() }).optional(),
  unchecked: z.array(z.string()),
  coverage: CoverageSchema,
});
export type VerifyReport = z.infer<typeof VerifyReportSchema>;
export type Verdict = VerifyReport["verdict"];
