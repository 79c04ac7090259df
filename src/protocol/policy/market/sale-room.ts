/**
 * The room of a sale by sealed bids (docs/SPEC.md §5.15 "Sealed bids on a listing", decision
 * 0469): its config's citation carries the settled price, and every price written there is that
 * one. The room kinds that set a price call this (an offer's and a counter's terms state it, so any
 * deal the room closes is at the settled price; an auction, which would set another, does not open).
 */
import { TrestleError } from "../../errors.js";
import type { Terms } from "../../schemas/room.js";
import type { TableState } from "../state.js";

/** Throws E_NOT_ALLOWED (reason `sale_price`) when `state` is the room of a sale and `terms` are not its settled amount and currency (null: a write that would set a price of its own); elsewhere nothing. */
export function checkSalePrice(state: TableState, terms: Terms | null): void {
  const sale = state.config.room?.match?.data.sale;
  if (!sale || (terms !== null && terms.amount === sale.price && terms.currency === sale.currency)) return;
  const settled = `${sale.price} ${sale.currency} (minor units)`;
  const why = terms === null ? "nothing sets another price here" : "its terms state that amount and currency";
  throw new TrestleError("E_NOT_ALLOWED", `this room's sale was settled by sealed bids at ${settled}: ${why}`, {
    reason: "sale_price",
    sale,
  });
}
