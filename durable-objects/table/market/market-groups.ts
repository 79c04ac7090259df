/**
 * A market's chat groups on its object (docs/SPEC.md §5.15 "Groups", decision 0500): the creator's
 * code request checked before the chat directory makes its code (nothing is written then), the
 * binding appended once the code was typed in a group, the creator's signed unbinding, and the
 * groups a member or the creator reads with their delivery health. Every write goes through the
 * same signature check and admit as any other; a retried statement returns its first entry.
 */
import { groupBoundDraft, groupUnboundDraft } from "../../../src/protocol/requests/group-requests.js";
import { parseOrThrow, TrestleError } from "../../../src/protocol/errors.js";
import { LIMITS } from "../../../src/protocol/limits/limits.js";
import { requireMarket } from "../../../src/protocol/policy/market/listing-live.js";
import { ownerKeyOf } from "../../../src/protocol/policy/owners.js";
import { verifyStatement } from "../../../src/protocol/signing/crypto.js";
import { GroupCodeRequestSchema, GroupIdSchema, GroupUnbindRequestSchema, type GroupCodeRequest } from "../../../src/protocol/schemas/market-group.js";
import type { GroupState } from "../../../src/protocol/policy/market/market-state.js";
import { checkSignature, commit, requireTable } from "../writing/writes.js";
import type { WriteOutcome } from "../writing/outcome.js";
import type { TableContext } from "../context.js";

/** A checked code request and the creator's key, which the directory counts codes against. */
export interface CheckedGroupCode {
  request: GroupCodeRequest;
  creatorKey: string;
}

/** Checks the creator's request for a group code: this market's, signed by its creator within the clock window, with room for one more group. Writes nothing. */
export async function checkGroupCode(t: TableContext, body: unknown): Promise<CheckedGroupCode> {
  const request = parseOrThrow(GroupCodeRequestSchema, body, "group code request");
  const state = requireTable(t);
  const market = requireMarket(state, "binding a chat group");
  const { statement } = request;
  if (statement.table !== state.table) throw new TrestleError("E_WRONG_TABLE", `the code request is for table "${statement.table}"`);
  if (Math.abs(t.now() - statement.ts) > LIMITS.auth_window_ms) throw new TrestleError("E_EXPIRED", "the code request's time is outside the window; check your clock");
  const creatorKey = ownerKeyOf(state, state.creator)!;
  if (!(await verifyStatement(creatorKey, "room", statement, request.sig))) throw new TrestleError("E_NOT_OWNER", `only the market's creator ${state.creator} binds its groups: the request is not signed by its key`);
  if (Object.keys(market.groups).length >= LIMITS.market_groups) throw new TrestleError("E_NOT_ALLOWED", `a market has at most ${LIMITS.market_groups} groups bound at once`, { reason: "market_groups", limit: LIMITS.market_groups });
  return { request, creatorKey };
}

/** Appends the binding of `group`, where the code for the creator's `request` was typed (the relay's word). */
export async function writeGroupBound(t: TableContext, request: unknown, group: string): Promise<WriteOutcome> {
  const checked = parseOrThrow(GroupCodeRequestSchema, request, "group code request");
  const draft = groupBoundDraft(requireTable(t), checked, parseOrThrow(GroupIdSchema, group, "group id"));
  await checkSignature(draft);
  return commit(t, draft);
}

/** Appends the creator's signed unbinding of a group. */
export async function writeGroupUnbound(t: TableContext, body: unknown): Promise<WriteOutcome> {
  const request = parseOrThrow(GroupUnbindRequestSchema, body, "group unbind request");
  const state = requireTable(t);
  if (request.statement.table !== state.table) throw new TrestleError("E_WRONG_TABLE", `the unbinding is for table "${request.statement.table}"`);
  const draft = groupUnboundDraft(state, request);
  await checkSignature(draft);
  return commit(t, draft);
}

/** Whether `group` of `platform` is bound to this market now. */
export function hasGroup(t: TableContext, platform: string, group: string): boolean {
  return boundGroups(t).some((g) => g.platform === platform && g.group === group);
}

/** The groups bound to this market now, in the order they were bound. */
export function boundGroups(t: TableContext): GroupState[] {
  return Object.values(requireMarket(t.requireState(), "chat groups").groups).sort((a, b) => a.seq - b.seq);
}
