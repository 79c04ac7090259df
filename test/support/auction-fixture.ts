/**
 * Sealed-bid auctions for protocol tests (docs/SPEC.md §5.11): the stroller room's auction, sara
 * selling and ben buying, opened, committed and revealed as the bidders' machines would (each bid
 * hashed with its own salt, bound to the room, the auction and the side).
 */
import { bidCommitment, type AuctionK, type AuctionSide, type Entry } from "../../src/protocol/index.js";
import type { RoomLedger } from "./room-fixture.js";
import { nonceOf } from "./table-fixture.js";

/** k = 1/2: the price splits the difference. */
export const HALF: AuctionK = { num: 1, den: 2 };

/** How long commits stay open, and reveals after that, in the fixture's auctions. */
export const COMMIT_MS = 600_000;
export const REVEAL_MS = 600_000;

/** Opens an auction (ben-bot buys, sara-bot sells, TWD, k = 1/2 unless overridden) written by `by`; returns its leaf. */
export async function openAuction(
  r: RoomLedger,
  options: { k?: AuctionK; buyer?: string; seller?: string; by?: string } = {},
): Promise<string> {
  const [entry] = await r.write(options.by ?? "sara-bot", {
    kind: "mechanism",
    op: "open",
    sides: { buyer: options.buyer ?? "ben-bot", seller: options.seller ?? "sara-bot" },
    k: options.k ?? HALF,
    currency: "TWD",
    deadline: r.l.now + COMMIT_MS,
    reveal_deadline: r.l.now + COMMIT_MS + REVEAL_MS,
  });
  return entry!.leaf;
}

/** The salt the fixture uses for `seat`'s bid (fixed, so a test can reveal it again). */
export function saltOf(seat: string): string {
  return nonceOf(`salt:${seat}`);
}

/** `seat` commits to `bid` as `side` with its salt; returns the appended entries. */
export function commit(r: RoomLedger, seat: string, auction: string, side: AuctionSide, bid: number): Promise<Entry[]> {
  const commitment = bidCommitment({ table: r.state.table, auction, side, bid, salt: saltOf(seat) });
  return r.write(seat, { kind: "mechanism", op: "commit", auction, side, commitment });
}

/** `seat` reveals `bid` with its salt (or `salt`); returns the appended entries (the settlement too, when it decides the auction). */
export function reveal(
  r: RoomLedger,
  seat: string,
  auction: string,
  bid: number,
  salt = saltOf(seat),
): Promise<Entry[]> {
  return r.write(seat, { kind: "mechanism", op: "reveal", auction, bid, salt });
}
