/**
 * Tool profiles (docs/MCP.md "Profiles", decision 0410): which tools a server lists and answers.
 * Each tool is defined once (./tools); a profile is a list of tool names for one kind of session,
 * at most about 20 each (MAX_PROFILE_TOOLS): a seat at a table, a seat in a room, an owner's own session, a
 * member's seat in a market (decision 0520), and `all`. The
 * default follows from the settings; `trestle mcp --tools PROFILE|name,name` chooses. Tests check
 * that every name here is a tool and every tool is in at least one role profile.
 */
import { writesGuarded } from "../owner/index.js";
import type { McpSettings } from "./config.js";
import type { Tool } from "./tool.js";
import { TOOLS } from "./tools/index.js";

/** The profiles of a session's role; `all` is every tool. */
export const ROLE_PROFILES = ["table", "room", "owner", "market"] as const;
export type RoleProfile = (typeof ROLE_PROFILES)[number];

/** The most tools a role profile lists: "about 20", a cost every session pays in context. */
export const MAX_PROFILE_TOOLS = 25;

/** The tool names of each role profile, at most MAX_PROFILE_TOOLS, in the order the tools are listed. */
export const PROFILES: Record<RoleProfile, readonly `trestle_${string}`[]> = {
  // A seat taking part at a table: read, wait, write, vote, answer requests, and its owner's approvals.
  table: [
    "trestle_whoami",
    "trestle_create_table",
    "trestle_join",
    "trestle_read",
    "trestle_wait",
    "trestle_say",
    "trestle_pass",
    "trestle_raise_hand",
    "trestle_propose",
    "trestle_decide",
    "trestle_vote",
    "trestle_approve",
    "trestle_reject",
    "trestle_progress",
    "trestle_receipt",
    "trestle_verify",
    "trestle_request",
    "trestle_respond",
    "trestle_memory",
    "trestle_history",
    "trestle_ask_owner",
    "trestle_owner_instructions",
  ],
  // A seat negotiating in a room under its owner's mandate.
  room: [
    "trestle_whoami",
    "trestle_read",
    "trestle_wait",
    "trestle_say",
    "trestle_room_state",
    "trestle_room_offer",
    "trestle_room_counter",
    "trestle_room_accept",
    "trestle_room_reject",
    "trestle_room_withdraw",
    "trestle_room_grant",
    "trestle_room_revoke",
    "trestle_room_close",
    "trestle_room_auction",
    "trestle_room_bid",
    "trestle_room_reveal",
    "trestle_room_send_held",
    "trestle_deal_sign",
    "trestle_mandate",
    "trestle_rationale",
    "trestle_tell_owner",
    "trestle_ask_owner",
    "trestle_owner_instructions",
  ],
  // An owner's own session: make tables and rooms, seat, approve, answer its seats' questions, pause, revoke, delete, check.
  owner: [
    "trestle_whoami",
    "trestle_create_table",
    "trestle_invite",
    "trestle_join",
    "trestle_tables",
    "trestle_read",
    "trestle_memory",
    "trestle_history",
    "trestle_verify_chain",
    "trestle_approve",
    "trestle_reject",
    "trestle_close",
    "trestle_revoke_seat",
    "trestle_delete_table",
    "trestle_notify_status",
    "trestle_open_subtable",
    "trestle_room_create",
    "trestle_room_invite",
    "trestle_room_join",
    "trestle_room_eject",
    "trestle_owner_questions",
  ],
  // A member's seat in a market: list, search, sealed bids (decision 0528), its matches, their rooms (with what a room needs to reach a deal), the deal recorded.
  market: [
    "trestle_whoami",
    "trestle_join",
    "trestle_wait",
    "trestle_market_list",
    "trestle_market_update",
    "trestle_market_withdraw",
    "trestle_market_search",
    "trestle_market_bid",
    "trestle_market_reveal",
    "trestle_market_matches",
    "trestle_market_room",
    "trestle_market_record",
    "trestle_room_state",
    "trestle_room_offer",
    "trestle_room_counter",
    "trestle_room_accept",
    "trestle_room_reject",
    "trestle_room_withdraw",
    "trestle_room_close",
    "trestle_say",
    "trestle_deal_sign",
    "trestle_mandate",
    "trestle_tell_owner",
    "trestle_ask_owner",
    "trestle_owner_instructions",
  ],
};

/** The tools a server offers and the name it logs them under. */
export interface ToolSelection {
  /** A profile's name, or `custom` for a list of names. */
  profile: RoleProfile | "all" | "custom";
  tools: readonly Tool[];
}

/**
 * The profile a session gets by default: `owner` without a seat key; `room` when the active table
 * is one where this seat writes through the owner-side guards (a mandate or a room key in the
 * home, as every write then does); else `table`.
 */
export function defaultProfile(settings: McpSettings): RoleProfile {
  if (settings.seatKeyFile === undefined) return "owner";
  const { home, table, seat } = settings;
  return table !== undefined && seat !== undefined && writesGuarded(home, table, seat) ? "room" : "table";
}

/** The tools of a profile, in TOOLS order. */
export function profileTools(profile: RoleProfile | "all"): readonly Tool[] {
  if (profile === "all") return TOOLS;
  const names = new Set<string>(PROFILES[profile]);
  return TOOLS.filter((tool) => names.has(tool.name));
}

/**
 * What `--tools` selects: a profile name, or tool names separated by commas (with or without the
 * `trestle_` prefix); undefined picks the default for `settings`. Names that are no tool come back
 * in `unknown`, and nothing is selected.
 */
export function selectTools(spec: string | undefined, settings: McpSettings): ToolSelection | { unknown: string[] } {
  const choice = spec ?? defaultProfile(settings);
  if (choice === "all" || isRoleProfile(choice)) return { profile: choice, tools: profileTools(choice) };
  const names = choice
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const full = names.map((name) => (name.startsWith("trestle_") ? name : `trestle_${name}`));
  const unknown = names.filter((_, i) => !TOOLS.some((tool) => tool.name === full[i]));
  if (unknown.length > 0 || names.length === 0) return { unknown: names.length === 0 ? [choice] : unknown };
  return { profile: "custom", tools: TOOLS.filter((tool) => full.includes(tool.name)) };
}

function isRoleProfile(name: string): name is RoleProfile {
  return (ROLE_PROFILES as readonly string[]).includes(name);
}
