/**
 * A market's chat groups as requests (docs/SPEC.md §5.15 "Groups", decision 0500): the creator's
 * signed code request and unbinding (purpose `room`, client side), and the drafts the relay makes of
 * them: `group_bound` once the code was redeemed in a group (whose id is the relay's word) and
 * `group_unbound`. Pure given the key; the caller supplies nonces and times.
 */
import { parseOrThrow } from "../errors.js";
import { signStatement, type Signer } from "../signing/crypto.js";
import type { SystemDraftOf } from "../schemas/entry.js";
import {
  GroupCodeStatementSchema,
  GroupUnbindStatementSchema,
  type GroupCodeRequest,
  type GroupCodeStatement,
  type GroupUnbindRequest,
  type GroupUnbindStatement,
} from "../schemas/market-group.js";
import type { TableState } from "../policy/state.js";
import { creatorSigned } from "./drafts.js";

/** The creator's request for a code that binds one group of `platform` to the market. */
export async function signGroupCode(
  creatorSigner: Signer,
  fields: Omit<GroupCodeStatement, "scope">,
): Promise<GroupCodeRequest> {
  const statement = parseOrThrow(GroupCodeStatementSchema, { scope: "group_code", ...fields }, "group code statement");
  return { statement, sig: await signStatement(creatorSigner, "room", statement) };
}

/** The creator's request to unbind a group. */
export async function signGroupUnbind(
  creatorSigner: Signer,
  fields: Omit<GroupUnbindStatement, "scope">,
): Promise<GroupUnbindRequest> {
  const statement = parseOrThrow(
    GroupUnbindStatementSchema,
    { scope: "group_unbind", ...fields },
    "group unbind statement",
  );
  return { statement, sig: await signStatement(creatorSigner, "room", statement) };
}

/** The draft binding `group` (where the code was redeemed) by the creator's code request. */
export function groupBoundDraft(
  state: TableState,
  request: GroupCodeRequest,
  group: string,
): SystemDraftOf<"group_bound"> {
  const { platform, lang, nonce, ts } = request.statement;
  return {
    ...creatorSigned(state, request.sig),
    subkind: "group_bound",
    data: { platform, group, lang, nonce, ts, by: state.creator },
  };
}

/** The draft of the creator's signed unbinding. */
export function groupUnboundDraft(state: TableState, request: GroupUnbindRequest): SystemDraftOf<"group_unbound"> {
  const { platform, group, nonce, ts } = request.statement;
  return {
    ...creatorSigned(state, request.sig),
    subkind: "group_unbound",
    data: { platform, group, nonce, ts, by: state.creator },
  };
}
