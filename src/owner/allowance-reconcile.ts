/**
 * Bringing an owner's allowance store up to date across every room it counts (docs/MARKETS.md "An
 * owner's allowance"; `trestle allowance reconcile`). A guarded write does it for its own room; this
 * does it for all of them: each room with an open commitment is read as a seat that wrote there,
 * and what its verified ledger ended is released or spent (allowance-ledger.ts); a market's sealed
 * bids are judged at the market, and one found won there is judged in its sale's room in the same
 * pass, read as the seat that bid (the room seat `trestle market room` takes by default). A
 * reservation whose write the ledger does not show is released only when the process that made it
 * had certainly ended before the ledger was read (so whatever it sent is there). A room that cannot
 * be read, or whose transcript does not verify CLEAN, keeps everything it counts, and is reported.
 */
import type { Clock, TableClient } from "../client/index.js";
import { seatKeyPath } from "../client/home.js";
import { readKeyFile } from "../client/keys.js";
import { settleRoom } from "./allowance-ledger.js";
import {
  allowanceTotals,
  judgedIn,
  type AllowanceCommitment,
  type AllowanceStore,
  type AllowanceTotals,
} from "./allowance-store.js";
import { processEnded } from "./process-identity.js";
import { readTranscript, type Transcript } from "./transcript.js";

/** How one room went: brought up to date, or kept as it was and why. */
export type RoomReconciled = { room: string; ok: true } | { room: string; ok: false; reason: string };

/** What a reconcile did: the totals before and after, and each room it read. */
export interface AllowanceReconciled {
  before: AllowanceTotals;
  after: AllowanceTotals;
  rooms: RoomReconciled[];
}

/** Reads `room`'s verified transcript as `seat` (a seat of the owner that wrote there). */
export type RoomTranscript = (room: string, seat: string) => Promise<Transcript>;

/** Reads a room as the seat that wrote there, with that seat's key file in trestle home `home`, through the client `open` gives for the room. */
export function seatReader(home: string, open: (room: string) => Promise<TableClient>): RoomTranscript {
  return async (room, seat) => {
    const key = await readKeyFile(seatKeyPath(home, seat), "seat");
    return readTranscript(await open(room), { signer: key.signer, as: { seat } });
  };
}

/** Brings every room `store` counts an open commitment in up to date from its ledger, read with `read`, at `clock()`. */
export async function reconcileAllowance(
  store: AllowanceStore,
  read: RoomTranscript,
  clock: Clock,
): Promise<AllowanceReconciled> {
  const first = store.read().commitments;
  const key = (c: AllowanceCommitment) => `${c.room}/${c.nonce}`;
  // Judged before any ledger is read: a process that had ended by then sent all it ever will.
  const ended = new Set(
    first.filter((c) => c.state === "open" && c.seq === undefined && processEnded(c.process)).map(key),
  );
  const rooms: RoomReconciled[] = [];
  // Each room once, read as the seat of its first open commitment; a sealed bid found won here is judged in its sale's room next.
  for (;;) {
    const next = store.read().commitments.find((c) => c.state === "open" && !rooms.some((r) => r.room === judgedIn(c)));
    if (!next) break;
    const room = judgedIn(next);
    let transcript: Transcript;
    try {
      transcript = await read(room, next.seat);
    } catch (error) {
      rooms.push({ room, ok: false, reason: error instanceof Error ? error.message : String(error) });
      continue;
    }
    const state = transcript.state;
    if (!state || transcript.report.verdict !== "CLEAN") {
      rooms.push({
        room,
        ok: false,
        reason: `its transcript is ${transcript.report.verdict}, so what it ended cannot be established`,
      });
      continue;
    }
    const judged = {
      room,
      state,
      entries: transcript.entries,
      now: clock(),
      ended: (c: AllowanceCommitment) => ended.has(key(c)),
    };
    await store.update((list) => ({ commitments: settleRoom(list, judged), result: null }));
    rooms.push({ room, ok: true });
  }
  return { before: allowanceTotals(first), after: allowanceTotals(store.read().commitments), rooms };
}
