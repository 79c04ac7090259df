/**
 * The leak corpus (test/vectors/leak-corpus.json): encodings and paraphrases of never_disclose
 * secrets labelled leak or clean, run through the gate's own check (findDisclosure) exactly as the
 * guard calls it. Shared by its unit test and `npm run bench -- --leaks`.
 */
import { z } from "zod";
import { findDisclosure } from "../../src/owner/index.js";

const CaseSchema = z.strictObject({
  id: z.string().min(1),
  secret: z.string().min(1),
  body: z.string().optional(),
  message: z.record(z.string(), z.unknown()).optional(),
  recent: z.array(z.string()).optional(),
  secret_amount: z.enum(["refuse", "allow"]).optional(),
  currency: z.string().optional(),
  label: z.enum(["leak", "clean"]),
  caught: z.boolean().optional(),
});
/** One case of the corpus. */
export type LeakCase = z.infer<typeof CaseSchema>;

/** The corpus file: every case has a message (body or message), and a leak says whether the gate catches it. */
export const LeakCorpusSchema = z.strictObject({
  about: z.string(),
  cases: z
    .array(
      CaseSchema.refine(
        (c) => (c.body === undefined) !== (c.message === undefined),
        "a case has a body or a message",
      ).refine((c) => (c.label === "leak") === (c.caught !== undefined), "a leak says whether it is caught"),
    )
    .min(60),
});

/** Whether the gate flags `c`. */
export function flagged(c: LeakCase): boolean {
  const message = c.message ?? { kind: "say", body: c.body };
  return (
    findDisclosure(message, {
      never: [c.secret],
      recent: c.recent,
      secretAmount: c.secret_amount,
      currency: c.currency,
    }) !== null
  );
}

/** What running the corpus found: leaks caught and missed, clean cases flagged (false positives), and the rates. */
export interface CorpusRun {
  leaks: number;
  caught: string[];
  missed: string[];
  clean: number;
  falsePositives: string[];
  catchRate: number;
  falsePositiveRate: number;
}

/** Runs every case of the corpus text `text`. */
export function runCorpus(text: string): CorpusRun {
  const { cases } = LeakCorpusSchema.parse(JSON.parse(text));
  const leaks = cases.filter((c) => c.label === "leak");
  const clean = cases.filter((c) => c.label === "clean");
  const caught = leaks.filter(flagged).map((c) => c.id);
  const falsePositives = clean.filter(flagged).map((c) => c.id);
  return {
    leaks: leaks.length,
    caught,
    missed: leaks.map((c) => c.id).filter((id) => !caught.includes(id)),
    clean: clean.length,
    falsePositives,
    catchRate: caught.length / leaks.length,
    falsePositiveRate: falsePositives.length / clean.length,
  };
}
