/**
 * Verifying an export on the client: the protocol's own `verifyLedger` with the caller's pinned
 * relay key, and with the heads the client already holds for that table added to the export's
 * own. A relay that hands out an export shorter than, or different from, a head it signed
 * earlier is then REFUTED (truncation or fork), not merely CLEAN on its own terms. Evidence the
 * client keeps against the relay for that table makes the verdict REFUTED whatever the export
 * says (docs/SPEC.md §8.3): a relay once caught is not cleared by serving a tidy export.
 */
import { parseExport, verifyExport, verifyLedger, type Evidence, type SignedHead, type VerifyReport } from "../protocol/index.js";

/** What the caller brings: the pinned relay key (if any), heads it holds for this table, evidence it keeps, and the relay's published ledger limit (default LIMITS.entries). */
export interface VerifyContext {
  relayKey?: string;
  held?: readonly SignedHead[];
  evidence?: readonly Evidence[];
  maxEntries?: number;
}

/** Verifies export text; REFUTED, CLEAN or INCONCLUSIVE exactly as docs/SPEC.md §8.2 defines, and REFUTED while evidence is kept (§8.3). */
export async function verifyExportText(text: string, context: VerifyContext = {}): Promise<VerifyReport> {
  const options = {
    ...(context.relayKey === undefined ? {} : { relayKey: context.relayKey }),
    ...(context.maxEntries === undefined ? {} : { maxEntries: context.maxEntries }),
  };
  const parsed = parseExport(text);
  if (!parsed.ok) return verifyExport(text, options);
  const own = new Set(parsed.view.heads.map((h) => h.sig));
  const held = (context.held ?? []).filter((h) => h.table === parsed.header.table && !own.has(h.sig));
  const report = await verifyLedger({ ...parsed.view, heads: [...parsed.view.heads, ...held] }, options);
  const evidence = (context.evidence ?? []).find((e) => e.table === parsed.header.table);
  if (!evidence || report.verdict === "REFUTED") return report;
  const reason = `this client keeps evidence that the relay misbehaved: ${evidence.message} (see trestle evidence)`;
  return { ...report, verdict: "REFUTED", refuted: { seq: evidence.seq, reason } };
}

/** The table and relay key an export's header names, or null if the text is not an export. */
export function exportIdentity(text: string): { table: string; relay: string } | null {
  const parsed = parseExport(text);
  return parsed.ok ? { table: parsed.header.table, relay: parsed.header.relay } : null;
}
