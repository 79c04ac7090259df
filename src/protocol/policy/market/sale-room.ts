/**
 * The room of a sale by sealed bids (docs/SPEC.md §5.15 "Sealed bids on a listing", decision
 * 0469): its config's citation carries the settled price, and every price written there is that
 * one. An offer or counter states it (amount and currency), so any deal the room closes is at the
 * settled price; an auction, which would set another, does not open there.
 */
import { TrestleError } from "../../errors.js";
import type { AuthoredDraft } from "../../schemas/entry.js";
import type { TableState } from "../state.js";

/** Throws E_NOT_ALLOWED (reason `sale_price`) for a write in a sale's room that would set a price other than the settled one; every other write passes. */
export function checkSaleRoom(state: TableState, draft: AuthoredDraft): void {
  const sale = state.config.room?.match?.data.sale;
  if (!sale) return;
  const settled = `${sale.price} ${sale.currency} (minor units)`;
  if ((draft.kind === "offer" || draft.kind === "counter") && (draft.terms.amount !== sale.price || draft.terms.currency !== sale.currency)) {
    throw new TrestleError("E_NOT_ALLOWED", `this room's sale was settled by sealed bids at ${settled}: its terms state that amount and currency`, { reason: "sale_price", sale });
  }
  if (draft.kind === "mechanism" && draft.op === "open") {
    throw new TrestleError("E_NOT_ALLOWED", `this room's sale was settled by sealed bids at ${settled}: no auction sets another price here`, { reason: "sale_price", sale });
  }
}
