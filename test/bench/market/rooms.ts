/**
 * The room of one match, from both sides' machines (docs/MARKETS.md "From a match to a room"): the
 * opener enters it (creates it from the match's citation and seats its bot), then the other side
 * joins with the match as its invitation; each side signs its room seat's mandate again with its
 * limits for this item (tighter than the market seat's it carried: a floor for the seller, a lower
 * cap for the buyer) and opens its agent's seat there. What a run records of a guard's refusal.
 */
import { enterMatchRoom, readMandate, seatFiles, setMandate, type MandateFields } from "../../../src/owner/index.js";
import { TrestleError } from "../../../src/protocol/index.js";
import type { TableClient } from "../../../src/client/node.js";
import { AgentSeat, type Member } from "./members.js";

/** Both sides' seats in a match's room. */
export interface RoomSides {
  room: string;
  seller: AgentSeat;
  buyer: AgentSeat;
}

/** Guard refusals by reason (`disclose`, `floor`, `cap`, `allowance`, `open`, ...), over a whole run. */
export type Refusals = Record<string, number>;

/** Counts `error` when it is a guard's refusal (E_MANDATE) and returns its reason; rethrows anything else. */
export function refusedBy(error: unknown, refusals: Refusals): string {
  if (!(error instanceof TrestleError) || error.code !== "E_MANDATE") throw error;
  const reason = String(error.details?.reason ?? "unknown");
  refusals[reason] = (refusals[reason] ?? 0) + 1;
  return reason;
}

/** `member` enters the room of match `seq` of its market and signs its room seat's limits `money` (never looser than the market seat's it carried). */
async function enter(
  member: Member,
  seq: number,
  money: NonNullable<MandateFields["money"]>,
): Promise<{ room: string; client: TableClient }> {
  const entered = await enterMatchRoom({
    market: member.market,
    seq,
    owner: member.name,
    ownerSigner: member.owner,
    seatKey: async () => member.seatKey.publicKeyText,
    home: member.home,
    marketTranscript: () => member.marketSeat.transcript(),
  });
  const path = seatFiles(member.home, entered.room, entered.seat).mandate;
  const carried = await readMandate(path, {
    table: entered.room,
    seat: entered.seat,
    ownerKey: member.owner.publicKeyText,
  });
  if (!carried.ok) throw new Error(`${member.name}: no mandate carried into ${entered.room}: ${carried.message}`);
  const { version: _v, loosened: _l, signed_at: _s, ...fields } = carried.mandate;
  const signed = await setMandate(path, member.owner, { ...fields, money }, { now: Date.now() });
  if (signed.mandate.loosened)
    throw new Error(`${member.name}: the room mandate for ${entered.room} came out loosened`);
  return { room: entered.room, client: entered.client };
}

/**
 * Opens and joins the room of match `seq` between `seller` and `buyer` (`opener` first), each
 * under its limits for the item (the seller's floor `floor`, the buyer's cap `cap`), and opens both
 * agents' seats there.
 */
export async function openRoom(o: {
  seq: number;
  seller: Member;
  buyer: Member;
  opener: "seller" | "buyer";
  floor: number;
  cap: number;
  sellerCap: number;
}): Promise<RoomSides> {
  const sides = {
    seller: { member: o.seller, money: { currency: "USD" as const, cap: o.sellerCap, floor: o.floor } },
    buyer: { member: o.buyer, money: { currency: "USD" as const, cap: o.cap } },
  };
  const first = sides[o.opener];
  const second = sides[o.opener === "seller" ? "buyer" : "seller"];
  // Each side learns of the match from its own market transcript, as its agent would.
  await first.member.marketSeat.after(o.seq - 1);
  const opened = await enter(first.member, o.seq, first.money);
  await second.member.marketSeat.after(o.seq - 1);
  const joined = await enter(second.member, o.seq, second.money);
  if (joined.room !== opened.room) throw new Error(`the two sides of match ${o.seq} entered different rooms`);
  const clients = { [o.opener]: opened.client, [o.opener === "seller" ? "buyer" : "seller"]: joined.client } as Record<
    "seller" | "buyer",
    TableClient
  >;
  const seat = (side: "seller" | "buyer", m: Member) =>
    AgentSeat.open(clients[side], m.seat, m.seatKey, m.home, m.verifying);
  const [seller, buyer] = await Promise.all([seat("seller", o.seller), seat("buyer", o.buyer)]);
  return { room: opened.room, seller, buyer };
}
