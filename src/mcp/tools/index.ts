/**
 * The registry of MCP tools, in the order clients list them. A new tool is one file in this
 * folder plus one line here; its name starts with `trestle_` (a test checks every one).
 */
import type { Tool } from "../tool.js";
import { approve } from "./approve.js";
import { dealSign } from "./deal-sign.js";
import { close } from "./close.js";
import { createTable } from "./create-table.js";
import { decide } from "./decide.js";
import { deleteTable } from "./delete-table.js";
import { history } from "./history.js";
import { invite } from "./invite.js";
import { join } from "./join.js";
import { memory } from "./memory.js";
import { notifyStatus } from "./notify-status.js";
import { openSubtable } from "./open-subtable.js";
import { pass } from "./pass.js";
import { progress } from "./progress.js";
import { propose } from "./propose.js";
import { raiseHand } from "./raise-hand.js";
import { read } from "./read.js";
import { receipt } from "./receipt.js";
import { reject } from "./reject.js";
import { request } from "./request.js";
import { respond } from "./respond.js";
import { revokeSeat } from "./revoke-seat.js";
import { say } from "./say.js";
import { tables } from "./tables.js";
import { verify } from "./verify.js";
import { verifyChain } from "./verify-chain.js";
import { vote } from "./vote.js";
import { wait } from "./wait.js";
import { whoami } from "./whoami.js";
import { roomCreate, roomEject, roomInvite, roomJoin } from "./room-admin.js";
import { roomState } from "./room-state.js";
import { ROOM_WRITE_TOOLS } from "./room-write.js";
import { mandate, rationale, sendHeld, tellOwner } from "./owner-private.js";
import { askOwnerTool, ownerInstructions } from "./owner-ask.js";
import { ownerQuestions } from "./owner-questions.js";
import { MARKET_BID_TOOLS } from "./market-bids.js";
import { MARKET_LISTING_TOOLS } from "./market-listings.js";
import { MARKET_MATCH_TOOLS } from "./market-matches.js";

/** Every tool the server offers. */
export const TOOLS: readonly Tool[] = [
  whoami,
  createTable,
  invite,
  join,
  read,
  wait,
  say,
  pass,
  raiseHand,
  propose,
  decide,
  vote,
  approve,
  reject,
  progress,
  receipt,
  verify,
  request,
  respond,
  openSubtable,
  memory,
  history,
  verifyChain,
  tables,
  close,
  revokeSeat,
  deleteTable,
  notifyStatus,
  // Rooms (docs/ROOMS.md): owners' agents negotiating under mandates the agents cannot move.
  roomCreate,
  roomInvite,
  roomJoin,
  roomEject,
  roomState,
  ...ROOM_WRITE_TOOLS,
  sendHeld,
  dealSign,
  mandate,
  rationale,
  tellOwner,
  askOwnerTool,
  ownerInstructions,
  ownerQuestions,
  // Markets (docs/MARKETS.md): listings, matches and the rooms they open.
  ...MARKET_LISTING_TOOLS,
  ...MARKET_BID_TOOLS,
  ...MARKET_MATCH_TOOLS,
];

/** The tool named `name`, if any. */
export function findTool(name: string): Tool | undefined {
  return TOOLS.find((t) => t.name === name);
}
