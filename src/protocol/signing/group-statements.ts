/**
 * What a market's creator signed for a group entry (docs/SPEC.md §5.15 "Groups"): the code request
 * a `group_bound` redeemed (without the group, which the relay attests) and the unbinding a
 * `group_unbound` records, both purpose `room`; and the keys under which each nonce is used once.
 */
import type { SystemDraftOf } from "../schemas/entry.js";
import type { GroupCodeStatement, GroupUnbindStatement } from "../schemas/market-group.js";

/** The code request a group binding redeemed, rebuilt from its entry. */
export function groupCodeStatementOf(entry: Pick<SystemDraftOf<"group_bound">, "table" | "data">): GroupCodeStatement {
  const { platform, lang, nonce, ts } = entry.data;
  return { scope: "group_code", table: entry.table, platform, lang, nonce, ts };
}

/** The unbinding a group_unbound entry records, rebuilt from its entry. */
export function groupUnbindStatementOf(
  entry: Pick<SystemDraftOf<"group_unbound">, "table" | "data">,
): GroupUnbindStatement {
  const { platform, group, nonce, ts } = entry.data;
  return { scope: "group_unbind", table: entry.table, platform, group, nonce, ts };
}

/** The key under which a group entry's nonce is used once per market: each code request binds one group, each unbinding counts once. */
export function groupNonceKey(entry: SystemDraftOf<"group_bound"> | SystemDraftOf<"group_unbound">): string {
  return `${entry.subkind === "group_bound" ? "group_code" : "group_unbind"}:${entry.data.nonce}`;
}
