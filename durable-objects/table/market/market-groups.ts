/**
 * A market's chat groups on its object (docs/SPEC.md §5.15 "Groups", decision 0500): the creator's
 * code request checked before the chat directory makes its code (nothing is written then), the
 * binding appended once the code was typed in a group, the creator's signed unbinding, the groups a
 * member or the creator reads with their delivery health, and what a bound member's commands in a
 * bound group write: a relay-attested listing or its withdrawal (the chat directory checked the
 * account's binding and the group's; admit checks the group again, and the member). Every write goes through the
 * same signature check and admit as any other; a retried statement returns its first entry.
 */
import { groupBoundDraft, groupUnboundDraft } from "../../../src/protocol/requests/group-requests.js";
import { parseOrThrow, TrestleError } from "../../../src/protocol/errors.js";
import { LIMITS } from "../../../src/protocol/limits/limits.js";
import { memberGone, requireMarket } from "../../../src/protocol/policy/market/listing-live.js";
import { ownerEntries, ownerKeyOf } from "../../../src/protocol/policy/owners.js";
import type { ChatPlatform } from "../../../src/protocol/schemas/control.js";
import type { ListingSide } from "../../../src/protocol/schemas/market.js";
import { verifyStatement } from "../../../src/protocol/signing/crypto.js";
import {
  GroupCodeRequestSchema,
  GroupIdSchema,
  GroupUnbindRequestSchema,
  type GroupCodeRequest,
  type GroupListingData,
} from "../../../src/protocol/schemas/market-group.js";
import type { GroupState } from "../../../src/protocol/policy/market/market-state.js";
import { checkSignature, admitAndAppend, requireTable } from "../writing/writes.js";
import type { WriteOutcome } from "../storage/outcome.js";
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
  if (statement.table !== state.table)
    throw new TrestleError("E_WRONG_TABLE", `the code request is for table "${statement.table}"`);
  if (Math.abs(t.now() - statement.ts) > LIMITS.auth_window_ms)
    throw new TrestleError("E_EXPIRED", "the code request's time is outside the window; check your clock");
  const creatorKey = ownerKeyOf(state, state.creator)!;
  if (!(await verifyStatement(creatorKey, "room", statement, request.sig)))
    throw new TrestleError(
      "E_NOT_OWNER",
      `only the market's creator ${state.creator} binds its groups: the request is not signed by its key`,
    );
  if (Object.keys(market.groups).length >= LIMITS.market_groups)
    throw new TrestleError("E_NOT_ALLOWED", `a market has at most ${LIMITS.market_groups} groups bound at once`, {
      reason: "market_groups",
      limit: LIMITS.market_groups,
    });
  return { request, creatorKey };
}

/** Appends the binding of `group`, where the code for the creator's `request` was typed (the relay's word). */
export async function writeGroupBound(t: TableContext, request: unknown, group: string): Promise<WriteOutcome> {
  const checked = parseOrThrow(GroupCodeRequestSchema, request, "group code request");
  const draft = groupBoundDraft(requireTable(t), checked, parseOrThrow(GroupIdSchema, group, "group id"));
  await checkSignature(draft);
  return admitAndAppend(t, draft);
}

/** Appends the creator's signed unbinding of a group. */
export async function writeGroupUnbound(t: TableContext, body: unknown): Promise<WriteOutcome> {
  const request = parseOrThrow(GroupUnbindRequestSchema, body, "group unbind request");
  const state = requireTable(t);
  if (request.statement.table !== state.table)
    throw new TrestleError("E_WRONG_TABLE", `the unbinding is for table "${request.statement.table}"`);
  const draft = groupUnboundDraft(state, request);
  await checkSignature(draft);
  return admitAndAppend(t, draft);
}

/** Whether `group` of `platform` is bound to this market now. */
export function hasGroup(t: TableContext, platform: string, group: string): boolean {
  return boundGroups(t).some((g) => g.platform === platform && g.group === group);
}

/** The groups bound to this market now, in the order they were bound. */
export function boundGroups(t: TableContext): GroupState[] {
  return Object.values(requireMarket(t.requireState(), "chat groups").groups).sort((a, b) => a.seq - b.seq);
}

/** What a bound account may do in the market: the member its first bound owner key that is one speaks for (null: none is), and the market's categories. */
export interface GroupMember {
  owner: string | null;
  categories: string[];
}

/** The member the owner keys `keys` (one chat account's, oldest binding first) speak for: the first that is a member of this market and not ejected. */
export function groupMember(t: TableContext, keys: readonly string[]): GroupMember {
  const state = requireTable(t);
  requireMarket(state, "a group command");
  const rules = state.config.market!;
  const members = ownerEntries(state).filter(([name]) => memberGone(state, name) === null);
  const owner = keys.map((key) => members.find(([, k]) => k === key)?.[0]).find((name) => name !== undefined) ?? null;
  return { owner, categories: [...rules.categories] };
}

/** A member's listing typed in a bound group, as the chat directory hands it over (it checked the account's binding and the group's). */
export interface GroupListingInput {
  owner: string;
  via: ChatPlatform;
  group: string;
  side: ListingSide;
  /** What the member typed: the item (a title, and the whole text when longer), the category, the price. */
  listing: Pick<GroupListingData, "title" | "text" | "category" | "price">;
}

/** Appends a member's relay-attested listing from a group: one unit, living as long as the market lets a listing live. */
export function writeGroupListing(t: TableContext, input: GroupListingInput): WriteOutcome {
  const state = requireTable(t);
  requireMarket(state, "a listing from a group");
  const rules = state.config.market!;
  const { owner, via, group, side, listing } = input;
  const data = { owner, via, group, side, ...listing, quantity: 1, expires: t.now() + rules.listing_ttl_ms };
  return admitAndAppend(t, {
    table: state.table,
    seat: null,
    kind: "system",
    subkind: "group_listing",
    data,
    author: null,
  });
}

/** Appends a member's withdrawal, from a bound group, of its listing written at entry `seq`. */
export function writeGroupUnlist(
  t: TableContext,
  input: { owner: string; via: ChatPlatform; group: string; seq: number },
): WriteOutcome {
  const state = requireTable(t);
  requireMarket(state, "withdrawing from a group");
  const entry = input.seq >= 1 && input.seq <= t.ledger.seq ? t.ledger.range(input.seq, input.seq, 1)[0] : undefined;
  const listing =
    entry?.kind === "listing" || (entry?.kind === "system" && entry.subkind === "group_listing")
      ? entry.leaf
      : undefined;
  if (listing === undefined)
    throw new TrestleError("E_UNKNOWN_LISTING", `entry ${input.seq} of this market is no listing`);
  const { owner, via, group } = input;
  return admitAndAppend(t, {
    table: state.table,
    seat: null,
    kind: "system",
    subkind: "group_unlist",
    data: { owner, via, group, listing },
    author: null,
  });
}
