/**
 * Hints under an MCP tool error, by code: what the model can do next, in tool names. Codes whose
 * CLI hint already fits (src/text/hints.ts) fall back to it, so there is one hint per situation.
 */
import { hintFor } from "../text/hints.js";
import type { ErrorCode } from "../protocol/index.js";

const HINTS: Partial<Record<ErrorCode, string>> = {
  E_SCHEMA: "fix the argument the message names; the tool's input schema lists every field and its format",
  E_NOT_FLOOR: "call trestle_wait until you hold the floor, or trestle_raise_hand to ask for it",
  E_NOT_ALLOWED: "the table's rules do not allow this entry now; trestle_read shows the floor and the rules",
  E_CLOSED:
    "the table is closed; task work (progress, receipt, verify) still goes on; trestle_history shows how it ended",
  E_PAUSED: "an owner paused the table; wait (trestle_wait) until every owner the error names lifts their own pause",
  E_REVOKED:
    "your owner revoked this seat's key at this table: stop writing here; only your owner can seat you again, with a new key",
  E_TABLE_NOT_FOUND:
    "check the table id (trestle_tables lists the tables this server knows), or create one with trestle_create_table",
  E_UNKNOWN_SEAT: "join first (trestle_join), or check the seat name: only seats the config declares can join",
  E_SEAT_TAKEN: "that seat already has a key; an owner may seat another declared seat",
  E_NOT_OWNER: "the owner key this server holds is not an owner in that table's config",
  E_BAD_SIGNATURE:
    "the key this server holds does not hold that seat or owner; the owner checks TRESTLE_SEAT_KEY_FILE and TRESTLE_OWNER_KEY_FILE",
  E_AUTH: "this seat is not seated at that table yet (trestle_join), or this machine's clock is off",
  E_KEY_FILE:
    "the owner sets TRESTLE_SEAT_KEY_FILE or TRESTLE_OWNER_KEY_FILE in this server's environment (keys come from trestle keygen, chmod 600)",
  E_NETWORK: "is the relay running? the owner checks TRESTLE_URL in this server's environment",
  E_RELAY_KEY:
    "stop: the relay's key changed; only the owner can check and accept it (trestle pin --forget in a terminal)",
  E_FORK:
    "stop and tell the owner: the relay served a history that contradicts one it signed; the evidence is kept on this machine and only the owner can set it aside (trestle evidence --clear in a terminal)",
  E_NO_APPROVER:
    "nobody can answer for that owner now; the owner runs this server with their key and an MCP client that can ask them, or trestle watch",
  E_UNKNOWN_TASK: "check the task id (<seq>.<owner>); trestle_read and trestle_memory list the tasks",
  E_TASK_STATE: "the task is not in a state that allows this; trestle_memory shows each task's state",
  E_NOT_EXECUTOR:
    "only the seat that ran the task (a seat of its owner) reports it; call trestle_progress first to become its executor",
  E_SELF_VERIFY: "another seat must verify this task: you executed it",
  E_UNKNOWN_REQUEST: "check the request_id; trestle_memory lists the open requests with their ids and types",
  E_WRONG_RESPONSE_TYPE: "answer with the request's own type, as trestle_memory shows it",
  E_ALREADY_RESOLVED: "that request already has its answer; trestle_history shows it",
  E_UNKNOWN_OFFER: "no offer with that hash in this room; trestle_room_state lists the live offers with their hashes",
  E_UNKNOWN_GRANT: "no grant with that hash in this room; trestle_room_state lists the live grants with their hashes",
  E_NOT_LIVE: "that offer or grant is no longer live; trestle_room_state shows what is",
  E_TERMS_MISMATCH: "accept an offer as it stands (leave terms out), or counter it with trestle_room_counter",
  E_UNKNOWN_AUCTION: "no auction with that hash in this room; trestle_room_state lists the auctions with their hashes",
  E_REVEAL_MISMATCH: "reveal with trestle_room_reveal, which reads the bid and salt this machine committed to",
  E_PLAINTEXT:
    "this room is end-to-end encrypted: this machine needs the room key, which only the full invite link carries (trestle_room_join with the link)",
  E_MANDATE:
    "your owner's mandate refuses this; do not try to work around it: tell your owner (trestle_tell_owner) if it blocks the deal",
  E_HELD:
    "your owner must approve this exact message first; tell them (trestle_tell_owner) and retry with trestle_room_send_held once they did",
  E_GATE:
    "the gate will not send this; do not retry the same message: read details.reason and tell your owner (trestle_tell_owner)",
  E_RATE_LIMITED:
    "the relay's limits were reached (details.limit names which); wait details.retry_after_ms before trying again, and write less often. A write sent again is never applied twice",
  E_TABLE_DELETED:
    "that table was deleted on the relay (details say when and why); tell your owner, and open a new table if the work goes on",
  E_QUOTA:
    "your owner's key holds as many tables as this relay allows; tell your owner (they can delete a table they no longer need)",
  E_NOT_CONFIRMED:
    "only the owner can confirm this, in person: in the principal window this server links them to (an MCP client that can show a link, URL elicitation), in trestle view, or with trestle approve (or trestle reject) in a terminal",
};

/** The hint for `code` in tool terms, else the CLI's, else none. */
export function mcpHint(code: ErrorCode): string | undefined {
  return HINTS[code] ?? hintFor(code);
}
