/**
 * Building sub-table requests and drafts (docs/SPEC.md §5.9), shared by clients, the relay and
 * tests: the opening seat's signed request, the parent's `subtable_opened` draft, the child's
 * `table_opened` draft with carried joins, the relay's `result` statement when a child closes,
 * and the cross-check of a parent's result against the child's own ledger.
 */
import { canonicalize } from "../encoding/canonical.js";
import { GENESIS_LINK, leafOf, linkOf } from "../ledger/chain.js";
import { signStatement, type Signer } from "../signing/crypto.js";
import { TrestleError } from "../errors.js";
import { validateConfig } from "../policy/config-check.js";
import type { TableState } from "../policy/state.js";
import { checkNotRevoked } from "../policy/seat-revoke.js";
import { own } from "../encoding/records.js";
import type { TableConfig } from "../schemas/config.js";
import type { Entry, SystemDraftOf } from "../schemas/entry.js";
import type { HiddenEntry } from "../schemas/export.js";
import type {
  CarriedJoin,
  SubtableRequest,
  SubtableResultRequest,
  SubtableResultStatement,
} from "../schemas/subtable.js";
import { subtableStatement } from "../signing/subtable-statements.js";

/** A sub-table request signed by `seat` of the parent (named by `config.parent`) with its seat key. */
export async function signSubtable(seatSigner: Signer, config: TableConfig, seat: string): Promise<SubtableRequest> {
  const sig = await signStatement(seatSigner, "subtable", subtableStatement(config, seat));
  return { config: config as unknown as Record<string, unknown>, seat, sig };
}

/** The parent's draft for an opening request; the seat's key comes from the parent's state. */
export function subtableOpenedDraft(state: TableState, request: SubtableRequest): SystemDraftOf<"subtable_opened"> {
  const config = validateConfig(request.config);
  const opener = own(state.seats, request.seat);
  if (opener) checkNotRevoked(state, opener.key);
  if (!opener || opener.left !== null)
    throw new TrestleError("E_UNKNOWN_SEAT", `seat "${request.seat}" is not at table "${state.table}"`);
  return {
    table: state.table,
    seat: null,
    kind: "system",
    subkind: "subtable_opened",
    data: { config, opener: request.seat },
    author: { key: opener.key, sig: request.sig },
  };
}

/**
 * The owner-signed join that seated `seat`, read from the entry that seated it (its seat_joined,
 * or the table_opened that carried it into a sub-table); undefined when that entry did not.
 */
export function carriedJoinOf(entry: Entry, seat: string): CarriedJoin | undefined {
  if (entry.kind !== "system") return undefined;
  if (entry.subkind === "seat_joined" && entry.data.join.seat === seat) {
    return { join: entry.data.join, card: entry.data.card, sig: entry.author.sig };
  }
  if (entry.subkind === "table_opened") return entry.data.parent?.joins.find((j) => j.join.seat === seat);
  return undefined;
}

/** The child's first entry: the config, the relay key, and the parent link with every seat's carried join. */
export function childOpeningDraft(
  opened: SystemDraftOf<"subtable_opened">,
  at: { seq: number; joins: CarriedJoin[] },
  relayKey: string,
): SystemDraftOf<"table_opened"> {
  const { config, opener } = opened.data;
  const creator = at.joins.find((j) => j.join.seat === opener)?.join.owner;
  if (creator === undefined)
    throw new TrestleError("E_FORBIDDEN", "the opening seat must be one of the sub-table's seats");
  return {
    table: config.id,
    seat: null,
    kind: "system",
    subkind: "table_opened",
    data: { config, relay: relayKey, creator, parent: { table: opened.table, seq: at.seq, opener, joins: at.joins } },
    author: opened.author,
  };
}

/**
 * What the relay signs when a closed child reports to its parent: the seq and link of its
 * `table_closed` entry, close reason, last decision. Task work may go on after the close (§5.6),
 * so the newest entry is not the close; naming the close keeps every attempt the same bytes.
 */
export function resultStatement(
  state: TableState,
  ledger: { linkAt(seq: number): string | undefined },
): SubtableResultStatement {
  const parent = state.config.parent;
  if (!parent || !state.closed) throw new TrestleError("E_INTERNAL", "only a closed sub-table reports a result");
  const link = ledger.linkAt(state.closed.seq);
  if (link === undefined) throw new TrestleError("E_INTERNAL", `the ledger lacks the close at ${state.closed.seq}`);
  const last = state.decisions[state.decisions.length - 1];
  const decision = last
    ? { seq: last.seq, seat: last.seat, body: last.body, ...(last.refs ? { refs: [...last.refs] } : {}) }
    : null;
  return { parent, table: state.table, seq: state.closed.seq, link, reason: state.closed.reason, decision };
}

/** The parent's draft for a relay-signed result delivered by the child. */
export function subtableResultDraft(
  request: SubtableResultRequest,
  relayKey: string,
): SystemDraftOf<"subtable_result"> {
  const { parent, ...data } = request.statement;
  return {
    table: parent,
    seat: null,
    kind: "system",
    subkind: "subtable_result",
    data,
    author: { key: relayKey, sig: request.sig },
  };
}

/**
 * Checks a parent's subtable_result against the child's ledger as a reader holds it (entries in
 * seq order from 1): the child closed at exactly the reported (seq, link), for the reported reason,
 * with the reported decision. Task work after the close (§5.6) may follow it. Returns null when
 * they agree, else why not. A full entry's leaf is recomputed from its content, never read from it
 * (each ledger is still verified on its own first).
 */
export function checkResultAgainstChild(result: Entry, child: readonly (Entry | HiddenEntry)[]): string | null {
  if (result.kind !== "system" || result.subkind !== "subtable_result") return "not a subtable_result entry";
  const { table, seq, link, reason, decision } = result.data;
  const first = child[0];
  if (
    !first ||
    !("kind" in first) ||
    first.table !== table ||
    first.kind !== "system" ||
    first.subkind !== "table_opened"
  ) {
    return `the child ledger is not table "${table}"`;
  }
  if (first.data.parent?.table !== result.table) return `the child was not opened by table "${result.table}"`;
  const upToClose = child.slice(0, seq);
  const closing = upToClose[upToClose.length - 1];
  if (!closing || closing.seq !== seq) return `the child's ledger does not reach the reported seq ${seq}`;
  const chained = upToClose.reduce(
    (prev, item) => linkOf(prev, "kind" in item ? leafOf(item) : item.leaf),
    GENESIS_LINK,
  );
  if (chained !== link) return `the child's ledger does not have the reported link at seq ${seq}`;
  if (
    !("kind" in closing) ||
    closing.kind !== "system" ||
    closing.subkind !== "table_closed" ||
    closing.data.reason !== reason
  ) {
    return `the child did not close at ${seq} for "${reason}"`;
  }
  if (decision === null) return null;
  const made = child[decision.seq - 1];
  if (!made || !("kind" in made))
    return `the reported decision at ${decision.seq} is not readable in the child's ledger`;
  const body =
    made.kind === "decision"
      ? { seat: made.seat, body: made.body, refs: made.refs }
      : made.kind === "system" && made.subkind === "decision"
        ? made.data
        : null;
  if (
    !body ||
    body.seat !== decision.seat ||
    body.body !== decision.body ||
    canonicalize(body.refs ?? null) !== canonicalize(decision.refs ?? null)
  ) {
    return `the reported decision differs from the child's entry ${decision.seq}`;
  }
  return null;
}
