/**
 * One-line hints shown under an error, by code: what to do next, in the CLI's own terms (the MCP
 * server falls back to them, src/mcp/hints.ts). Every
 * code in the closed list has one (the record is total, so a new code cannot land without it).
 */
import type { ErrorCode } from "../protocol/index.js";

const HINTS: Record<ErrorCode, string> = {
  E_SCHEMA: "the input does not match the protocol; the message names the field",
  E_NOT_CANONICAL: "use plain JSON with integer numbers only (no fractions, NaN or exponents)",
  E_TOO_LARGE:
    "shorten the input (limits are at /.well-known/trestle.json); if details name a ledger limit, the table is full: start a new one",
  E_NO_TERMINATION: 'add a termination condition, e.g. "termination": { "any": ["decision"] }',
  E_BAD_SIGNATURE: "the key does not hold this seat or owner; check --key / --owner-key",
  E_AUTH: "check --seat/--owner and their keys, and that this machine's clock is right",
  E_FORBIDDEN:
    "this seat or owner may not do that here (only decision_by seats decide; only a task's own owner approves it)",
  E_WRONG_TABLE: "the signed statement names another table; check --table",
  E_EXPIRED: "the statement expired; check this machine's clock or shorten --ttl",
  E_NONCE_REUSED: "that nonce already signed something else; run the command again (each run signs with a fresh nonce)",
  E_NOT_OWNER: "check --owner and each --effect's owner: they must be owners listed in the table config",
  E_UNKNOWN_SEAT:
    "check --seat; only declared seats can join, and a seat that left (a shutdown it approved) can no longer read or write there",
  E_SEAT_TAKEN: "that seat already has a key; pick another seat",
  E_SEAT_LIMIT: "the table has no free seat; ask its owners",
  E_NOT_FLOOR: "wait for your turn (trestle watch shows the floor), or ask for it: trestle raise-hand",
  E_NOT_ALLOWED: "the table's rules do not allow this entry now; trestle read shows the floor and rules",
  E_CLOSED:
    "the table is closed (task work still goes on: approve, progress, receipt, verify --task); trestle history shows how it ended",
  E_PAUSED: "an owner paused the table; writes go through again once every owner the error names lifts their own pause",
  E_REVOKED:
    "the seat's owner revoked this seat key here; the owner can seat a bot again with a new key (trestle join), never with this one",
  E_FORK:
    "the relay served a history that contradicts one it signed before; this home keeps the evidence (trestle evidence) and every command on the table exits 4 until you set it aside on purpose (trestle evidence --clear --table ID)",
  E_NO_APPROVER:
    'nobody can answer for that owner now: they can keep `trestle watch --owner <name>` open, bind a chat app, or set "approvals": "async" in the config',
  E_UNKNOWN_TASK: "check the task id (<seq>.<owner>); trestle tasks lists the table's tasks",
  E_TASK_STATE: "the task's state does not allow this (details.state); trestle tasks shows where each task is",
  E_NOT_EXECUTOR: "only a seat of the task's owner runs it, and only the seat that wrote its first progress reports it",
  E_SELF_VERIFY:
    "the executor cannot verify its own task; another seat (a checker) must: trestle verify --task <id> --seat <other>",
  E_NEEDS_SIGNATURE:
    "a chat tap cannot approve this task; approve with your owner key: trestle approve <task> --table <table>",
  E_APPROVAL_MISMATCH:
    "the approval does not match the task's proposal or effects; approve again from a fresh read: trestle approve <task> --table <table>",
  E_UNKNOWN_REQUEST: "no request with that request_id at this table; trestle history shows the requests",
  E_WRONG_RESPONSE_TYPE: "answer with the request's own type",
  E_ALREADY_RESOLVED: "that request already has its answer; trestle history shows it",
  E_UNKNOWN_OFFER: "no offer with that hash in this room; trestle room show lists the live offers by hash",
  E_UNKNOWN_GRANT: "no grant with that hash in this room; trestle room show lists the live grants by hash",
  E_NOT_LIVE:
    "that offer or grant was withdrawn, answered, countered, revoked or has expired; trestle room show lists what is live",
  E_TERMS_MISMATCH: "an accept takes the offer's terms as they are; leave the terms out, or counter with your own",
  E_NO_ANSWERER:
    "your owner cannot answer now: have them open trestle view, run trestle watch --owner, or bind a chat app that has delivered (trestle bind); then ask again",
  E_UNKNOWN_QUESTION: "no such question at this table; trestle answer --list --table <table> shows the open ones",
  E_INVITE:
    "the invite code is wrong, used, rotated or expired; ask the room's creator for a new one (trestle room invite)",
  E_UNKNOWN_AUCTION: "no auction with that hash in this room; trestle room show lists the auctions by hash",
  E_UNKNOWN_LISTING: "no listing with that seq or hash in this market; trestle market search shows the live ones",
  E_UNKNOWN_MATCH: "no match at that entry in this market; trestle market matches lists yours",
  E_REVEAL_MISMATCH:
    "the bid and salt do not match this side's commitment; trestle room reveal reads them from this seat's journal",
  E_PLAINTEXT:
    "this room is end-to-end encrypted: write through trestle room verbs or a seat with the room key (trestle room join with the full link)",
  E_TABLE_EXISTS: "a different config already uses this id; pick another id",
  E_REFUTED:
    "the ledger does not verify (details.seq, details.reason): check it with trestle verify; nothing of it was stored",
  E_MIRROR:
    "this relay only mirrors the table: write to the relay holding it (details.relay), or have its owners promote the mirror (trestle promote)",
  E_UNKNOWN_LOG:
    "the witness is not configured for this log: its operator adds ORIGIN=VKEY (trestle witness --log, or WITNESS_LOGS)",
  E_OLD_SIZE: "the witness holds another size (details.size): send a consistency proof from that size",
  E_INCONSISTENT:
    "the checkpoint does not extend what the witness cosigned; if the log signed both, the witness keeps them as evidence",
  E_TABLE_NOT_FOUND: "check --table (and --relay: tables live on one relay)",
  E_TABLE_DELETED:
    "the relay deleted this table (details say when and why); an export you kept still verifies, and its id is never used again: open a new table",
  E_NOT_FOUND: "the relay has no such route; check that --relay points at a trestle relay",
  E_RATE_LIMITED:
    "the relay's published limits (/.well-known/trestle.json) were reached; wait as long as the message says, then run the command again (writes are never applied twice)",
  E_QUOTA:
    "this owner key holds as many tables as the relay allows (details name the quota); delete one you no longer need: trestle delete --table <id>",
  E_UNAVAILABLE: "the relay cannot serve this now; try again later or ask its operator",
  E_INTERNAL: "the relay failed; this is a bug worth reporting",
  E_NETWORK: "is the relay running? start one with npm start, or pass --relay <url>",
  E_BAD_RESPONSE: "the relay's answer breaks the protocol; it may be a different program or misbehaving",
  E_RELAY_KEY: "if the operator really changed the key, forget the old pin: trestle pin --forget --relay <url>",
  E_KEY_FILE: "create keys with trestle keygen; key files must be chmod 600",
  E_NOT_CONFIRMED:
    "the owner did not confirm in the agent; approve from a terminal instead: trestle approve <task> --table <table>",
  E_MANDATE:
    "the seat's mandate refuses this (details.reason); only the owner changes it: trestle mandate show / trestle mandate set",
  E_HELD: "the owner approves the held message first: trestle gate approve <hash> (then trestle gate send <hash>)",
  E_GATE:
    "the gate will not send this (details.reason): an approval is spent or rejected, or the room's transcript did not verify CLEAN",
  E_AGENT:
    "the seat's agent failed its turn (details.reason); nothing it printed was written: fix the command or agent (docs/AGENTS.md)",
};

/** The hint for a code. */
export function hintFor(code: ErrorCode): string {
  return HINTS[code];
}
