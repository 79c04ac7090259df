/**
 * The chat directory's calls that handling a webhook event makes (ChatDirectoryDO's): through its
 * stub from the Worker, on the object itself inside its alarm; and what redeeming a code finds.
 */
import type { Result } from "../result.js";
import type { ChatPlatform } from "../../src/protocol/schemas/control.js";
import type { Lang } from "../../src/protocol/schemas/owner.js";

/** What redeeming a market's group code gave: the market, its creator's signed request, the group's language. */
export interface GroupCodeRedeemed {
  market: string;
  request: unknown;
  lang: Lang;
}

/** What redeeming a code found: an owner's code bound the account, or a market's group code reserved the group it was sent in (group-bind.ts); else why neither. */
export type Redeemed =
  | { outcome: "bound"; owner_key: string; lang: Lang }
  | ({ outcome: "group" } & GroupCodeRedeemed)
  | { outcome: "bad" }
  | { outcome: "wrong_platform"; platform: ChatPlatform }
  | { outcome: "too_many" }
  /** An owner's code sent in a group: spent, since others read it there. */
  | { outcome: "in_group" }
  /** A market's group code sent in a private chat: kept for the group. */
  | { outcome: "group_code_private"; market: string }
  /** A market's group code sent in a group that is another market's (or this one's) front door already: kept. */
  | { outcome: "group_taken"; market: string };

/** A group command past a flood limit: which (one member's, or the whole group's), and the wait until its window ends. */
export interface GroupFlood {
  limit: "group_commands_per_member" | "group_commands_per_group";
  wait_ms: number;
}

/** The directory calls handling makes. */
export interface Directory {
  seen(id: string): Promise<Result<boolean>>;
  owners(platform: ChatPlatform, account: string): Promise<Result<string[]>>;
  redeem(platform: ChatPlatform, account: string, code: string, group?: string | null): Promise<Result<Redeemed>>;
  releaseGroup(platform: ChatPlatform, group: string, market: string): Promise<Result<boolean>>;
  groupMarket(platform: ChatPlatform, group: string): Promise<Result<string | null>>;
  countGroupCommand(platform: ChatPlatform, group: string, account: string): Promise<Result<GroupFlood | null>>;
  unindex(platform: ChatPlatform, account: string, ownerKey?: string): Promise<Result<number>>;
  defer(platform: ChatPlatform, events: unknown): Promise<Result<{ queued: number }>>;
}
