/**
 * Custody of a table (docs/SPEC.md §8.4): which relay key held it over which entries, the custody
 * statement its owners and the relay taking it over sign, the custody draft that relay appends,
 * and the statements a custody entry carries. A head counts only when signed by the relay that
 * held custody at its seq; verifiers, mirrors and clients all read custody with these functions.
 */
import { signStatement, type RecordedStatement, type Signer } from "./crypto.js";
import { TrestleError } from "../errors.js";
import type { CustodyOwner, CustodySignature, CustodyStatement } from "../schemas/custody.js";
import type { Entry, EntryDraft, SystemDraftOf } from "../schemas/entry.js";
import type { HiddenEntry } from "../schemas/export.js";
import type { SignedHead } from "../schemas/head.js";

/** A span of the ledger one relay key held: entries `from` to `to` (null: up to the end), in order. */
export interface CustodySpan {
  /** The key, or null when the reader cannot see the table_opened that names it. */
  relay: string | null;
  from: number;
  to: number | null;
  /** Seq of the custody entry that began this span (null for the first). */
  custody: number | null;
}

/** What the owners and the relay taking custody signed for a custody entry. */
export function custodyStatementOf(entry: Pick<SystemDraftOf<"custody">, "table" | "data">): CustodyStatement {
  const { from, to, head } = entry.data;
  return { scope: "custody", table: entry.table, from, to, seq: head.seq, link: head.link };
}

/** The statements a custody entry carries besides the new relay's own: each owner's signature and the past relay's head. */
export function custodyStatementsOf(entry: EntryDraft): RecordedStatement[] {
  if (entry.kind !== "system" || entry.subkind !== "custody") return [];
  const statement = custodyStatementOf(entry);
  const { sig, ...head } = entry.data.head;
  return [
    ...entry.data.owners.map((o): RecordedStatement => ({ purpose: "custody", statement, key: o.key, sig: o.sig })),
    { purpose: "head", statement: head, key: head.relay, sig },
  ];
}

/** The custody statement for moving the chain that ends at `head` (signed by the relay holding it) to relay key `to`. */
export function custodyStatementFor(head: SignedHead, to: string): CustodyStatement {
  return { scope: "custody", table: head.table, from: head.relay, to, seq: head.seq, link: head.link };
}

/** An owner's signature over a custody statement (purpose `custody`). */
export async function signCustody(
  signer: Signer,
  owner: string,
  statement: CustodyStatement,
): Promise<CustodySignature> {
  return { statement, owner, sig: await signStatement(signer, "custody", statement) };
}

/**
 * The custody entry the relay taking custody appends: `statement` (whose `to` is that relay's key,
 * `relaySig` its signature), the past relay's `head` at the statement's seq and link, and the
 * owners' signatures with the keys the table lists for them.
 */
export function custodyDraft(
  statement: CustodyStatement,
  head: SignedHead,
  owners: readonly CustodyOwner[],
  relaySig: string,
): SystemDraftOf<"custody"> {
  if (
    head.seq !== statement.seq ||
    head.link !== statement.link ||
    head.relay !== statement.from ||
    head.table !== statement.table
  ) {
    throw new TrestleError(
      "E_FORK",
      `the owners authorised custody of the chain at ${statement.seq}; the head held here is at ${head.seq} with another link or key`,
    );
  }
  return {
    table: statement.table,
    seat: null,
    kind: "system",
    subkind: "custody",
    data: { from: statement.from, to: statement.to, head, owners: [...owners] },
    author: { key: statement.to, sig: relaySig },
  };
}

/** Whether an item is a custody entry. */
export function isCustody(item: Entry | HiddenEntry | EntryDraft): item is Extract<Entry, { subkind: "custody" }> {
  return "kind" in item && item.kind === "system" && item.subkind === "custody";
}

/**
 * The spans of custody a ledger records, in order: the relay named by table_opened from entry 1,
 * then each custody entry's `to` from that entry on. Custody entries are readable by every reader
 * (§5.3), so a seat's view has them all.
 */
export function custodySpans(items: readonly (Entry | HiddenEntry | (EntryDraft & { seq: number }))[]): CustodySpan[] {
  const first = items[0];
  const opened =
    first && "kind" in first && first.kind === "system" && first.subkind === "table_opened" ? first.data.relay : null;
  const spans: CustodySpan[] = [{ relay: opened, from: 1, to: null, custody: null }];
  for (const item of items) {
    if (!isCustody(item)) continue;
    const last = spans[spans.length - 1]!;
    last.to = item.seq - 1;
    last.relay ??= item.data.from;
    spans.push({ relay: item.data.to, from: item.seq, to: null, custody: item.seq });
  }
  return spans;
}

/** The span holding entry `seq` (a head at `seq` must be signed by its relay). */
export function spanAt(spans: readonly CustodySpan[], seq: number): CustodySpan {
  return spans.find((s) => s.from <= seq && (s.to === null || seq <= s.to)) ?? spans[0]!;
}
