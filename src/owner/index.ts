/**
 * The owner's side (docs/ROOMS.md): guards that run on the owner's machine before anything is
 * signed (mandates, the never_disclose check, the commitment gate), the journal of what never
 * leaves the machine, notes to the owner, rooms from the owner's side (invites, links,
 * joining, ejecting), and markets' (reading one, and entering a match's room with the market
 * seat's mandate carried). Used by the client library's users, the CLI and the MCP server alike.
 * Node only (files under the trestle home); depends on src/client and src/protocol.
 */
export * from "./commitments.js";
export * from "./disclosure.js";
export * from "./gate.js";
export * from "./guarded-seat.js";
export * from "./invites.js";
export * from "./journal.js";
export * from "./mandate.js";
export * from "./market-bids.js";
export * from "./notes.js";
export * from "./owner-words-sealing.js";
export * from "./paths.js";
export * from "./records.js";
export * from "./transcript.js";
export * from "./live-transcript.js";
export * from "./room-view.js";
export * from "./room-key.js";
export * from "./sealing.js";
export * from "./deals.js";
export * from "./standing-deals.js";
export * from "./agent-turn.js";
export * from "./agent-view.js";
export * from "./seat-driver.js";
export * from "./exec-agent.js";
export * from "./entry-ref.js";
export * from "./market-view.js";
export * from "./market-rooms.js";
export * from "./allowance.js";
export * from "./allowance-ledger.js";
export * from "./allowance-reconcile.js";
export * from "./allowance-store.js";
export * from "./market-scope.js";
export * from "./process-identity.js";
