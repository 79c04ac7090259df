/**
 * Feeding a relay's replica of a table (docs/SPEC.md §8.4): an export cut into pages, one per
 * signed head it carries (a relay puts one after every LIMITS.export_head_bytes of entry lines),
 * each page the entries since the previous head with their originals, so every page is a chain
 * extension the replica verifies on its own. Used to import a table and to keep a mirror up to
 * date; the relay verifies every page, so nothing here is trusted by it.
 */
import {
  isEntry,
  parseExport,
  TrestleError,
  type Entry,
  type LedgerView,
  type ReplicaPage,
  type ReplicaStatus,
} from "../protocol/index.js";
import type { HttpClient } from "./http.js";

/** The pages of `view`, in order, each ending at one of its heads. Throws E_FORBIDDEN when the view hides entries (a replica holds every entry in full). */
export function replicaPages(view: Pick<LedgerView, "items" | "heads" | "originals">): ReplicaPage[] {
  const hidden = view.items.find((item) => !isEntry(item));
  if (hidden)
    throw new TrestleError(
      "E_FORBIDDEN",
      `entry ${hidden.seq} is hidden from this reader; a replica needs every entry: export as an owner`,
    );
  const entries = view.items as readonly Entry[];
  const heads = [...new Map(view.heads.map((h) => [h.seq, h])).values()].sort((a, b) => a.seq - b.seq);
  const pages: ReplicaPage[] = [];
  let from = 0;
  for (const head of heads) {
    if (head.seq <= from || head.seq > entries.length) continue;
    const items = entries.slice(from, head.seq);
    const originals = items.flatMap((e) => {
      const body = view.originals?.get(e.seq);
      return body === undefined ? [] : [{ seq: e.seq, body }];
    });
    pages.push({ items, originals, head });
    from = head.seq;
  }
  return pages;
}

/**
 * Feeds export `text` to the replica of its table at `http`'s relay; returns its status after the
 * last page. The pages it holds already are not sent again, but the export's newest head over
 * them is (a bare head), and the page that straddles its tip is sent whole, so a replica that
 * holds another chain under the same relay key finds the fork. A relay's refusal (E_REFUTED,
 * E_FORK with the evidence it kept, E_TABLE_EXISTS) is thrown as it came.
 */
export async function feedReplica(http: HttpClient, text: string): Promise<ReplicaStatus> {
  const parsed = parseExport(text);
  if (!parsed.ok) throw new TrestleError("E_SCHEMA", `not an export: ${parsed.reason}`);
  const table = parsed.header.table;
  const held = await replicaSeq(http, table);
  const pages = replicaPages(parsed.view);
  const behind = pages.filter((p) => p.head.seq <= held).at(-1);
  let status = behind ? await http.replicate(table, { items: [], originals: [], head: behind.head }) : null;
  for (const page of pages.filter((p) => p.head.seq > held)) status = await http.replicate(table, page);
  return status ?? (await http.replicaStatus(table));
}

/** How many entries the relay holds of `table` (0 when it has none). */
async function replicaSeq(http: HttpClient, table: string): Promise<number> {
  try {
    return (await http.replicaStatus(table)).seq;
  } catch (error) {
    if (error instanceof TrestleError && error.code === "E_TABLE_NOT_FOUND") return 0;
    throw error;
  }
}
