/**
 * The registry of CLI verbs, in the order `trestle help` lists them. A new verb is one file in
 * this folder plus one line here; a family of verbs (`room offer`, `gate approve`, …) is one file
 * exporting its list. Two-word names are matched before one-word ones.
 */
import type { Command } from "./command.js";
import { approve } from "./approve.js";
import { bind } from "./bind.js";
import { channels } from "./channels.js";
import { checkpoint } from "./checkpoint.js";
import { unbind } from "./unbind.js";
import { create } from "./create.js";
import { decide } from "./decide.js";
import { deleteCommand } from "./delete.js";
import { evidence } from "./evidence.js";
import { exportCommand } from "./export.js";
import { history } from "./history.js";
import { join } from "./join.js";
import { keygen } from "./keygen.js";
import { mcp } from "./mcp.js";
import { pass } from "./pass.js";
import { pin } from "./pin.js";
import { progress } from "./progress.js";
import { prove } from "./prove.js";
import { propose } from "./propose.js";
import { raiseHand } from "./raise-hand.js";
import { read } from "./read.js";
import { receipt } from "./receipt.js";
import { reject } from "./reject.js";
import { revoke } from "./revoke.js";
import { request } from "./request.js";
import { respond } from "./respond.js";
import { say } from "./say.js";
import { seat } from "./seat.js";
import { subtable } from "./subtable.js";
import { tasks } from "./tasks.js";
import { verify } from "./verify.js";
import { vote } from "./vote.js";
import { view } from "./view.js";
import { watch } from "./watch.js";
import { witness } from "./witness.js";
import { ROOM_ADMIN } from "./room-admin.js";
import { ROOM_WRITES } from "./room-write.js";
import { MANDATE } from "./mandate.js";
import { ALLOWANCE } from "./allowance.js";
import { GATE } from "./gate.js";
import { DEAL } from "./deal.js";
import { PRIVATE } from "./private.js";
import { OWNER_ASK } from "./owner-ask.js";
import { CUSTODY } from "./custody.js";
import { CONTROL } from "./pause.js";
import { MARKET_ADMIN } from "./market-admin.js";
import { MARKET_LISTINGS } from "./market-listings.js";
import { MARKET_BIDS } from "./market-bids.js";
import { MARKET_MATCHES } from "./market-matches.js";
import { MARKET_GROUPS } from "./market-groups.js";

/** Every command, by its place in the help list. */
export const COMMANDS: readonly Command[] = [
  keygen,
  create,
  join,
  say,
  pass,
  raiseHand,
  propose,
  decide,
  vote,
  // Requests and sub-tables (docs/SPEC.md §5.7, §5.9).
  request,
  respond,
  subtable,
  approve,
  reject,
  tasks,
  progress,
  receipt,
  read,
  watch,
  // Any agent in a seat: a command or an A2A agent, turn by turn (docs/AGENTS.md).
  seat,
  // The principal window (docs/VIEW.md).
  view,
  history,
  verify,
  prove,
  checkpoint,
  exportCommand,
  pin,
  evidence,
  // An owner's own brake: each owner's pause holds until that owner lifts it (docs/SPEC.md §5.5).
  ...CONTROL,
  // An owner's seat taken off a table, its key refused there (docs/SPEC.md §5.13).
  revoke,
  // A table's end on its relay (docs/SPEC.md §6.6).
  deleteCommand,
  // Moving a table between relays, and mirrors (docs/SPEC.md §8.4).
  ...CUSTODY,
  // A transparency-log witness on this machine (docs/SPEC.md §12).
  witness,
  // The MCP server (docs/MCP.md).
  mcp,
  // Chat apps (docs/CHAT-APPS.md): the owner's notification channels.
  bind,
  unbind,
  channels,
  // Rooms (docs/ROOMS.md): owners' agents negotiating, under mandates the agents cannot move.
  ...ROOM_ADMIN,
  ...ROOM_WRITES,
  ...MANDATE,
  ...ALLOWANCE,
  ...GATE,
  ...DEAL,
  ...PRIVATE,
  // A seat and its own owner (docs/SPEC.md §5.14): questions, answers, instructions.
  ...OWNER_ASK,
  // Markets (docs/SPEC.md §5.15): members' agents list, are matched, and meet in the match's room.
  ...MARKET_ADMIN,
  ...MARKET_LISTINGS,
  ...MARKET_BIDS,
  ...MARKET_MATCHES,
  ...MARKET_GROUPS,
];

/** The command named `name`, if any. */
export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}

/** The command `argv` starts with (a two-word name such as `room offer` first) and the arguments after its name. */
export function commandFor(argv: readonly string[]): { command: Command; rest: string[] } | undefined {
  const [first, second, ...after] = argv;
  if (first === undefined) return undefined;
  const pair = second === undefined ? undefined : findCommand(`${first} ${second}`);
  if (pair) return { command: pair, rest: after };
  const single = findCommand(first);
  return single ? { command: single, rest: argv.slice(1) } : undefined;
}
