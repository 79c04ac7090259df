/**
 * Entering the room of a market's match in words (docs/MARKETS.md "From a match to a room"), as
 * `trestle market room` and the principal window say it: how the owner entered (opened, joined as
 * the other side, or seated another bot), the room seat's mandate, and where to negotiate. Pure.
 */
import type { SignedHead } from "../protocol/schemas/head.js";
import { headRef } from "./format.js";

/** What an owner's entry into a match's room came to (owner/market-rooms.ts EnteredRoom). */
export interface EnteredWords {
  room: string;
  match: number;
  how: "opened" | "joined" | "seated";
  seat: string;
  seq: number;
  head: SignedHead;
  mandate: "carried" | "none";
}

/** The lines saying what entering `e` (a room of market `market`'s match) did; `bold` marks the room's id. */
export function enteredRoomLines(
  e: EnteredWords,
  market: string,
  bold: (text: string) => string = (text) => text,
): string[] {
  const where = `room ${bold(e.room)} of match #${e.match}`;
  const first =
    e.how === "opened"
      ? `opened ${where} and seated ${e.seat} there as entry #${e.seq} (head ${headRef(e.head)}); the other side joins it with trestle market room ${e.match}`
      : e.how === "joined"
        ? `joined ${where} as its other side, seating ${e.seat} as entry #${e.seq} (head ${headRef(e.head)})`
        : `seated ${e.seat} in ${where} as entry #${e.seq} (head ${headRef(e.head)})`;
  const mandate =
    e.mandate === "carried"
      ? `${e.seat}'s mandate there: the limits your market seat has at ${market}, signed again with your owner key`
      : `no mandate: ${e.seat} commits to nothing there until you sign one (trestle mandate set --table ${e.room} --seat ${e.seat})`;
  return [first, mandate, `negotiate there: trestle room show --table ${e.room} --seat ${e.seat}`];
}
