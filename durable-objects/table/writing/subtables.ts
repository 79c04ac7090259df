/**
 * Sub-tables across Durable Objects (docs/SPEC.md §5.9). The child's object receives the opening
 * request, asks the parent's object to record `subtable_opened` (which checks the opener's
 * signature and seats and returns each seat's original join), then appends its own table_opened
 * carrying those joins. Both steps are idempotent, so a retried opening returns the same table.
 */
import { canonicalize } from "../../../src/protocol/encoding/canonical.js";
import { TrestleError, parseOrThrow } from "../../../src/protocol/errors.js";
import { validateConfig } from "../../../src/protocol/policy/config-check.js";
import { own } from "../../../src/protocol/encoding/records.js";
import type { SystemEntryOf } from "../../../src/protocol/schemas/entry.js";
import {
  SubtableRequestSchema,
  SubtableResultRequestSchema,
  type CarriedJoin,
  type SubtableRequest,
} from "../../../src/protocol/schemas/subtable.js";
import { statementOf } from "../../../src/protocol/signing/statements.js";
import { embeddedStatementsOf, subtableStatement } from "../../../src/protocol/signing/subtable-statements.js";
import {
  carriedJoinOf,
  childOpeningDraft,
  subtableOpenedDraft,
  subtableResultDraft,
} from "../../../src/protocol/requests/subtables.js";
import { verifyStatement } from "../../../src/protocol/signing/crypto.js";
import type { Result } from "../../result.js";
import { unwrap } from "../../result.js";
import { checkSignature, admitAndAppend, requireTable } from "./writes.js";
import type { WriteOutcome } from "../storage/outcome.js";
import type { TableContext } from "../context.js";

/** What the parent returns to a child it registered: its subtable_opened entry and each seat's original join. */
export interface SubtableRegistration {
  opened: SystemEntryOf<"subtable_opened">;
  joins: CarriedJoin[];
}

/** The parent's RPC surface a child calls. */
export interface ParentTable {
  registerSubtable(body: unknown): Promise<Result<SubtableRegistration>>;
}

/** Parent side: records a seat's opening of a child (once per child id) and returns the carried joins. */
export async function writeSubtableOpened(
  t: TableContext,
  body: unknown,
): Promise<{ outcome: WriteOutcome; registration: SubtableRegistration }> {
  const request = parseOrThrow(SubtableRequestSchema, body, "sub-table request");
  const draft = subtableOpenedDraft(requireTable(t), request);
  await checkSignature(draft);
  const outcome = admitAndAppend(t, draft);
  const opened = outcome.primary;
  if (opened.kind !== "system" || opened.subkind !== "subtable_opened")
    throw new TrestleError("E_INTERNAL", "not a subtable_opened entry");
  const state = requireTable(t);
  const joins = Object.keys(opened.data.config.seats ?? {}).map((name) => {
    const seat = own(state.seats, name);
    const seatedBy = seat ? t.ledger.range(seat.joined, seat.joined, 1)[0] : undefined;
    const join = seatedBy ? carriedJoinOf(seatedBy, name) : undefined;
    if (!join) throw new TrestleError("E_INTERNAL", `no recorded join for seat "${name}"`);
    return join;
  });
  return { outcome, registration: { opened, joins } };
}

/** Parent side: records a child's relay-signed result once; a repeat returns the first entry. */
export async function writeSubtableResult(t: TableContext, body: unknown, relayKey: string): Promise<WriteOutcome> {
  const request = parseOrThrow(SubtableResultRequestSchema, body, "sub-table result");
  const state = requireTable(t);
  const draft = subtableResultDraft(request, relayKey);
  if (draft.table !== state.table) throw new TrestleError("E_WRONG_TABLE", `the result is for parent "${draft.table}"`);
  await checkSignature(draft);
  return admitAndAppend(t, draft);
}

/** Child side: opens this table as a sub-table of `parentId` through the parent's object. */
export async function writeChildOpening(
  t: TableContext,
  parentId: string,
  body: unknown,
  deps: { parent: ParentTable; relayKey: string },
): Promise<WriteOutcome> {
  const request = parseOrThrow(SubtableRequestSchema, body, "sub-table request");
  const config = validateConfig(request.config);
  if (config.parent !== parentId)
    throw new TrestleError("E_WRONG_TABLE", `the config names parent "${config.parent ?? ""}", not "${parentId}"`);
  const existing = sameOpening(t, request);
  if (existing) return existing;
  const registration = unwrap(await deps.parent.registerSubtable(request));
  const draft = childOpeningDraft(
    registration.opened,
    { seq: registration.opened.seq, joins: registration.joins },
    deps.relayKey,
  );
  await checkSignature(draft);
  for (const recorded of embeddedStatementsOf(draft)) {
    if (!(await verifyStatement(recorded.key, recorded.purpose, recorded.statement, recorded.sig))) {
      throw new TrestleError("E_BAD_SIGNATURE", "a carried join signature does not verify");
    }
  }
  // Another opening may have landed while the parent answered or the signatures were checked.
  return sameOpening(t, request) ?? admitAndAppend(t, draft);
}

/** The recorded opening when this table already exists: the same signed opening again, or E_TABLE_EXISTS. */
function sameOpening(t: TableContext, request: SubtableRequest): WriteOutcome | undefined {
  if (!t.state) return undefined;
  const first = t.ledger.range(1, 1, 1)[0];
  const recorded = first ? statementOf(first) : null;
  const config = validateConfig(request.config);
  if (
    recorded?.purpose === "subtable" &&
    recorded.sig === request.sig &&
    canonicalize(recorded.statement) === canonicalize(subtableStatement(config, request.seat))
  ) {
    return { primary: first!, appended: [] };
  }
  throw new TrestleError("E_TABLE_EXISTS", `table "${t.state.table}" already exists`);
}
