/**
 * Writing and reading the JSONL ledger export (docs/SPEC.md §8.1). Reading is strict: a line that
 * is not valid JSON, or not exactly one of the export line shapes, refutes the export at that line.
 */
import { canonicalize } from "./canonical.js";
import { ExportHeaderSchema, ExportLineSchema, type ExportHeader, type HiddenEntry } from "./schemas/export.js";
import type { Entry } from "./schemas/entry.js";
import type { SignedHead } from "./schemas/head.js";
import type { VerifyReport } from "./schemas/verify.js";
import { verifyLedger, type LedgerView, type VerifyOptions } from "./verify.js";

/** The export text: header, entries (or hidden leaves) in seq order, then heads; one JSON object per line. */
export function exportText(header: Omit<ExportHeader, "type" | "version">, items: readonly (Entry | HiddenEntry)[], heads: readonly SignedHead[]): string {
  const lines = [canonicalize({ type: "trestle-export", version: 1, ...header })];
  for (const item of items) {
    lines.push(canonicalize("kind" in item ? { type: "entry", entry: item } : { type: "hidden", hidden: item }));
  }
  for (const head of heads) lines.push(canonicalize({ type: "head", head }));
  return lines.join("\n") + "\n";
}

/** A parsed export, or the line where it stopped being one. */
export type ParsedExport =
  | { ok: true; header: ExportHeader; view: LedgerView }
  | { ok: false; line: number; reason: string };

/** Parses export text strictly. */
export function parseExport(text: string): ParsedExport {
  const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
  const parse = (raw: string, n: number): { ok: true; value: unknown } | { ok: false; line: number; reason: string } => {
    try {
      return { ok: true, value: JSON.parse(raw) };
    } catch {
      return { ok: false, line: n, reason: `line ${n} is not JSON` };
    }
  };
  const first = parse(lines[0] ?? "", 1);
  if (!first.ok) return first;
  const header = ExportHeaderSchema.safeParse(first.value);
  if (!header.success) return { ok: false, line: 1, reason: "line 1 is not a trestle export header" };
  const items: (Entry | HiddenEntry)[] = [];
  const heads: SignedHead[] = [];
  for (let i = 1; i < lines.length; i++) {
    const parsed = parse(lines[i]!, i + 1);
    if (!parsed.ok) return parsed;
    const line = ExportLineSchema.safeParse(parsed.value);
    if (!line.success) return { ok: false, line: i + 1, reason: `line ${i + 1} is not a valid export line` };
    if (line.data.type === "head") heads.push(line.data.head);
    else if (heads.length > 0) return { ok: false, line: i + 1, reason: "entries after heads" };
    else items.push(line.data.type === "entry" ? line.data.entry : line.data.hidden);
  }
  return { ok: true, header: header.data, view: { table: header.data.table, relay: header.data.relay, items, heads } };
}

/** Verifies export text; a malformed line refutes it, anything else goes to `verifyLedger`. */
export async function verifyExport(text: string, options: VerifyOptions = {}): Promise<VerifyReport> {
  const parsed = parseExport(text);
  if (!parsed.ok) {
    return {
      verdict: "REFUTED",
      table: null,
      last_seq: 0,
      refuted: { seq: null, line: parsed.line, reason: parsed.reason },
      unchecked: [],
      coverage: {
        entries: 0,
        by_content: 0,
        by_hash: 0,
        signatures: 0,
        heads: 0,
        head_seq: null,
        relay_key_pinned: options.relayKey !== undefined,
        policy_replay: "skipped",
      },
    };
  }
  return verifyLedger(parsed.view, options);
}
