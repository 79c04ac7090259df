/**
 * Fixtures for the commit-gateway protocol tests: the gateway room (test/support/gateway.ts) in a
 * MemoryLedger, and helpers that sign approvals with an owner key exactly as a client would (from
 * the proposal entry it read).
 */
import {
  approvalDraft,
  approvalStatementFor,
  canonicalSha256,
  joinDraft,
  signApproval,
  signJoin,
  type ApprovalStatement,
  type ApprovalVerdict,
  type Effect,
  type Entry,
  type Signer,
  type TableConfig,
} from "../../../src/protocol/index.js";
import { CARD_EFFECT, gatewayConfig } from "../../support/gateway.js";
import { nonceOf, type Cast } from "../../support/table-fixture.js";
import { TestTable } from "./fixtures.js";

export { CARD_EFFECT, gatewayConfig };

/** Opens the gateway room with every seat joined. */
export function gatewayTable(k: Cast, overrides: Partial<TableConfig> = {}): Promise<TestTable> {
  return TestTable.open(gatewayConfig(k, overrides), undefined, k);
}

/** The entry at `seq`. */
export function entryAt(t: TestTable, seq: number): Entry {
  const entry = t.l.entries[seq - 1];
  if (!entry) throw new Error(`no entry ${seq}`);
  return entry;
}

/** Proposes `effects` as `seat`; returns the proposal's seq. */
export async function propose(
  t: TestTable,
  seat: string,
  effects: Effect[] = [CARD_EFFECT],
  body = "put #459 on the board",
): Promise<number> {
  const added = await t.write(seat, { kind: "proposal", body, effects });
  return added[0]!.seq;
}

/** The approval statement `owner` signs for its task of the proposal at `seq`, with `change` applied. */
export function statementFor(
  t: TestTable,
  seq: number,
  owner: string,
  verdict: ApprovalVerdict = "approve",
  change: Partial<ApprovalStatement> = {},
): ApprovalStatement {
  const nonce = nonceOf(`approval:${owner}:${seq}:${verdict}:${t.l.entries.length}`);
  return { ...approvalStatementFor(entryAt(t, seq), owner, { verdict, nonce }), ...change };
}

/** Appends `owner`'s approval (signed by `signer`, default the owner's key) of a statement. */
export async function approveWith(
  t: TestTable,
  owner: string,
  statement: ApprovalStatement,
  signer?: Signer,
): Promise<Entry[]> {
  const request = await signApproval(signer ?? t.ownerKey(owner), owner, statement);
  return t.l.append(approvalDraft(t.state, request));
}

/** Appends `owner`'s approval or rejection of its task of the proposal at `seq`. */
export function approve(
  t: TestTable,
  seq: number,
  owner: string,
  verdict: ApprovalVerdict = "approve",
): Promise<Entry[]> {
  return approveWith(t, owner, statementFor(t, seq, owner, verdict));
}

/** The state of task `id`. */
export function taskState(t: TestTable, id: string): string | undefined {
  return t.state.tasks[id]?.state;
}

/** Joins `seat` as its declared owner with a join that also signs the table's config (so the owner's rules count). */
export async function endorsingJoin(
  t: TestTable,
  seat: string,
  configSha256 = canonicalSha256(t.state.config),
): Promise<Entry[]> {
  const owner = t.config.seats![seat]!.owner;
  const request = await signJoin(
    t.ownerKey(owner),
    {
      table: t.state.table,
      seat,
      owner,
      seat_key: (await t.seatKey(seat)).publicKeyText,
      human: t.config.seats![seat]!.human ?? false,
      nonce: nonceOf(`endorsing join ${seat}`),
      expires: t.l.now + 60_000,
      config_sha256: configSha256,
    },
    { summary: `${seat} at the table` },
  );
  return t.l.append(joinDraft(t.state, request));
}
