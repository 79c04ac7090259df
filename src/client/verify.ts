/**
 * Verifying an export on the client: the protocol's own `verifyLedger` with the caller's pinned
 * relay key, and with the heads the client already holds for that table added to the export's
 * own. A relay that hands out an export shorter than, or different from, a head it signed
 * earlier is then REFUTED (truncation or fork), not merely CLEAN on its own terms. Evidence the
 * client keeps against the relay for that table makes the verdict REFUTED whatever the export
 * says (docs/SPEC.md §8.3): a relay once caught is not cleared by serving a tidy export.
 */
import {
  parseExport,
  verifyExport,
  verifyLedger,
  type EntryChecker,
  type Evidence,
  type LedgerView,
  type ParsedExport,
  type HashFunction,
  type SignedHead,
  type VerifyOptions,
  type VerifyReport,
} from "../protocol/index.js";

/** What the caller brings: the pinned relay key (if any), heads it holds for this table, evidence it keeps, the relay's published ledger limit (default LIMITS.entries), who checks leaves and signatures (default the protocol's `checkEntries`; in Node, verify-pool.ts spreads them over the cores), and the links' SHA-256 (default the protocol's; in Node, node-sha256.ts). */
export interface VerifyContext {
  relayKey?: string;
  held?: readonly SignedHead[];
  evidence?: readonly Evidence[];
  maxEntries?: number;
  checker?: EntryChecker;
  sha256?: HashFunction;
}

/** Verifies export text (`parsed`: its parse, when the caller has it already); REFUTED, CLEAN or INCONCLUSIVE exactly as docs/SPEC.md §8.2 defines, and REFUTED while evidence is kept (§8.3). */
export async function verifyExportText(
  text: string,
  context: VerifyContext = {},
  parsed: ParsedExport = parseExport(text),
): Promise<VerifyReport> {
  if (!parsed.ok) return verifyExport(text, optionsOf(context));
  return verifyHeldView({ ...parsed.view, table: parsed.header.table }, context);
}

/** Verifies a ledger view the caller holds (a parsed export, or the entries a live session followed) with the held heads of its table added; REFUTED while evidence is kept (§8.3). */
export async function verifyHeldView(
  view: LedgerView & { table: string },
  context: VerifyContext = {},
): Promise<VerifyReport> {
  const own = new Set(view.heads.map((h) => h.sig));
  const held = (context.held ?? []).filter((h) => h.table === view.table && !own.has(h.sig));
  const report = await verifyLedger({ ...view, heads: [...view.heads, ...held] }, optionsOf(context));
  const evidence = (context.evidence ?? []).find((e) => e.table === view.table);
  if (!evidence || report.verdict === "REFUTED") return report;
  const reason = `this client keeps evidence that the relay misbehaved: ${evidence.message} (see trestle evidence)`;
  return { ...report, verdict: "REFUTED", refuted: { seq: evidence.seq, reason } };
}

function optionsOf(context: VerifyContext): VerifyOptions {
  return {
    ...(context.relayKey === undefined ? {} : { relayKey: context.relayKey }),
    ...(context.maxEntries === undefined ? {} : { maxEntries: context.maxEntries }),
    ...(context.checker === undefined ? {} : { checker: context.checker }),
    ...(context.sha256 === undefined ? {} : { sha256: context.sha256 }),
  };
}

/** The table and relay key an export's header names, or null if the text is not an export (`parsed`: its parse, when the caller has it already). */
export function exportIdentity(
  text: string,
  parsed: ParsedExport = parseExport(text),
): { table: string; relay: string } | null {
  return parsed.ok ? { table: parsed.header.table, relay: parsed.header.relay } : null;
}
