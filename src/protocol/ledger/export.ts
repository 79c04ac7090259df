/**
 * Writing and reading the JSONL ledger export (docs/SPEC.md §8.1). Reading is strict: every line
 * must be canonical JSON (RFC 8785) and exactly one export line shape, in order, so any changed
 * byte either breaks a line or changes what a later check sees.
 */
import { canonicalBytes, canonicalize, jsonEqual, parseCanonical } from "../encoding/canonical.js";
import { LIMITS } from "../limits/limits.js";
import { isCaused } from "../policy/admit.js";
import { ExportHeaderSchema, ExportLineSchema, type ExportHeader, type HiddenEntry } from "../schemas/export.js";
import type { Entry } from "../schemas/entry.js";
import type { SignedHead } from "../schemas/head.js";
import type { Coverage, VerifyReport } from "../schemas/verify.js";
import { emptyCoverage, verifyLedger, type LedgerView, type VerifyOptions } from "./verify.js";

/** The export text: header, entries (or hidden leaves, each truncated entry followed by its original), heads. */
export function exportText(
  header: Omit<ExportHeader, "type" | "version">,
  items: readonly (Entry | HiddenEntry)[],
  heads: readonly SignedHead[],
  originals: ReadonlyMap<number, string> = new Map(),
): string {
  const lines = [canonicalize({ type: "trestle-export", version: 1, ...header })];
  for (const item of items) {
    lines.push(canonicalize("kind" in item ? { type: "entry", entry: item } : { type: "hidden", hidden: item }));
    const original = originals.get(item.seq);
    if (original !== undefined && "kind" in item)
      lines.push(canonicalize({ type: "original", original: { seq: item.seq, body: original } }));
  }
  for (const head of heads) lines.push(canonicalize({ type: "head", head }));
  return lines.join("\n") + "\n";
}

/** The UTF-8 bytes an entry takes in an export: its line, and its original's line when it has one, each with its newline. */
export function exportLineBytes(item: Entry | HiddenEntry, original?: string): number {
  const line =
    canonicalBytes("kind" in item ? { type: "entry", entry: item } : { type: "hidden", hidden: item }).length + 1;
  return original === undefined
    ? line
    : line + canonicalBytes({ type: "original", original: { seq: item.seq, body: original } }).length + 1;
}

/**
 * Where an export carries a head besides its last (docs/SPEC.md §8.1): after the first entry that
 * ends an admitted batch (the next entry is not caused by it) once the run of entry lines since
 * the previous head (from entry `from` on) is over LIMITS.export_head_bytes; never after the last
 * entry. A replica is fed an export page by page, each page ending at one of its heads.
 */
export function exportHeadPoints(
  entries: readonly Entry[],
  originals: ReadonlyMap<number, string>,
  from = 1,
): { seq: number; link: string }[] {
  const points: { seq: number; link: string }[] = [];
  let run = 0;
  for (const [i, item] of entries.slice(0, -1).entries()) {
    if (item.seq < from) continue;
    run += exportLineBytes(item, originals.get(item.seq));
    if (run <= LIMITS.export_head_bytes || isCaused(entries[i + 1]!)) continue;
    points.push({ seq: item.seq, link: item.link });
    run = 0;
  }
  return points;
}

/** A parsed export, or the line where it stopped being one. */
export type ParsedExport =
  { ok: true; header: ExportHeader; view: LedgerView } | { ok: false; line: number; reason: string };

/** Parses export text strictly. */
export function parseExport(text: string): ParsedExport {
  if (!text.endsWith("\n")) return { ok: false, line: 1 + countLines(text), reason: "an export ends with a newline" };
  const lines = text.slice(0, -1).split("\n");
  const values: unknown[] = [];
  for (let i = 0; i < lines.length; i++) {
    const value = parseCanonical(lines[i]!);
    if (value === undefined) return { ok: false, line: i + 1, reason: `line ${i + 1} is not canonical JSON` };
    values.push(value);
  }
  const header = ExportHeaderSchema.safeParse(values[0]);
  if (!header.success) return { ok: false, line: 1, reason: "line 1 is not a trestle export header" };
  const items: (Entry | HiddenEntry)[] = [];
  const texts: (string | null)[] = [];
  const heads: SignedHead[] = [];
  const originals = new Map<number, string>();
  for (let i = 1; i < values.length; i++) {
    const n = i + 1;
    const line = ExportLineSchema.safeParse(values[i]);
    if (!line.success) return { ok: false, line: n, reason: `line ${n} is not a valid export line` };
    const { data } = line;
    if (data.type === "head") {
      heads.push(data.head);
      continue;
    }
    if (heads.length > 0) return { ok: false, line: n, reason: `line ${n}: entries after heads` };
    if (data.type === "original") {
      const previous = items[items.length - 1];
      if (
        !previous ||
        !("kind" in previous) ||
        previous.seq !== data.original.seq ||
        !("truncated" in previous && previous.truncated)
      ) {
        return { ok: false, line: n, reason: `line ${n}: an original body must follow its truncated entry` };
      }
      if (originals.has(data.original.seq))
        return { ok: false, line: n, reason: `line ${n}: a second original for one entry` };
      originals.set(data.original.seq, data.original.body);
      continue;
    }
    items.push(data.type === "entry" ? data.entry : data.hidden);
    texts.push(data.type === "entry" ? entryText(lines[i]!, values[i], data.entry) : null);
  }
  return {
    ok: true,
    header: header.data,
    view: { table: header.data.table, relay: header.data.relay, items, texts, heads, originals },
  };
}

const ENTRY_LINE_START = '{"entry":';
const ENTRY_LINE_END = ',"type":"entry"}';

/**
 * The canonical text of an entry line's entry, a slice of the line (which is canonical, and has
 * exactly the keys `entry` and `type`), when the parsed entry is exactly what the line holds: the
 * schema fills in defaults (`body`), so an entry the line wrote without one is null here and its
 * leaf is computed from the parsed entry, as before.
 */
function entryText(line: string, value: unknown, entry: Entry): string | null {
  const raw = typeof value === "object" && value !== null && "entry" in value ? value.entry : undefined;
  return jsonEqual(raw, entry) ? line.slice(ENTRY_LINE_START.length, -ENTRY_LINE_END.length) : null;
}

function countLines(text: string): number {
  return text.split("\n").length - 1;
}

/** Verifies export text; a malformed line refutes it, anything else goes to `verifyLedger`. */
export async function verifyExport(text: string, options: VerifyOptions = {}): Promise<VerifyReport> {
  const parsed = parseExport(text);
  if (parsed.ok) return verifyLedger(parsed.view, options);
  const coverage: Coverage = emptyCoverage(0, options);
  return {
    verdict: "REFUTED",
    table: null,
    last_seq: 0,
    refuted: { seq: null, line: parsed.line, reason: parsed.reason },
    unchecked: [],
    coverage,
  };
}
