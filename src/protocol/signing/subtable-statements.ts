/**
 * The statements sub-table entries record (docs/SPEC.md §4.2, §5.9): the opening seat's
 * `subtable` statement (in the parent's subtable_opened and the child's table_opened), the relay's
 * `result` statement (in the parent's subtable_result), and the owner-signed joins a child's
 * table_opened carries. The relay and offline verifiers rebuild them with these same functions.
 */
import { canonicalSha256 } from "../encoding/hash.js";
import { own } from "../encoding/records.js";
import type { TableConfig } from "../schemas/config.js";
import type { EntryDraft, SystemDraftOf } from "../schemas/entry.js";
import type { SubtableResultStatement, SubtableStatement } from "../schemas/subtable.js";
import type { RecordedStatement } from "./crypto.js";

/** What the opening seat signs (purpose `subtable`) for a child config. */
export function subtableStatement(config: TableConfig, seat: string): SubtableStatement {
  return { table: config.id, parent: config.parent ?? "", config_sha256: canonicalSha256(config), seat };
}

/** What the relay signed (purpose `result`) for a parent's subtable_result entry. */
export function resultStatementOf(
  entry: Pick<SystemDraftOf<"subtable_result">, "table" | "data">,
): SubtableResultStatement {
  const { table, seq, link, reason, decision } = entry.data;
  return { parent: entry.table, table, seq, link, reason, decision };
}

/**
 * Statements an entry carries besides its own: for a child's table_opened, each carried join,
 * signed by its owner's key as the child's config lists it. Empty for every other entry.
 */
export function embeddedStatementsOf(entry: EntryDraft): RecordedStatement[] {
  if (entry.kind !== "system" || entry.subkind !== "table_opened" || !entry.data.parent) return [];
  const owners = entry.data.config.owners;
  return entry.data.parent.joins.map(({ join, sig }) => ({
    purpose: "join",
    statement: join,
    key: own(owners, join.owner)?.public_key ?? "",
    sig,
  }));
}
