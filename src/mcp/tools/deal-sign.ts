/**
 * `trestle_deal_sign` (docs/MCP.md "Rooms", docs/ROOMS.md "Deals"): asks the owner, in person, to
 * sign the final terms of the deal on an accepted offer with their owner key, in the principal
 * window (../confirm.ts), and with `show_price` to let a match's market show them; the seat then records the signature. The model's call alone signs nothing:
 * without a client that can show the link, or on a no, it is E_NOT_CONFIRMED and the owner can sign
 * with `trestle deal sign` in a terminal.
 */
import { z } from "zod";
import { dealIn, dealSignatures, resolveRef, roomState, signDeal } from "../../owner/index.js";
import { dealStatus } from "../../protocol/index.js";
import { dealLines } from "../../text/deal.js";
import { askOwner, requireOwnerLink } from "../confirm.js";
import { guardedSeat, RefArg } from "../room-seat.js";
import { defineTool } from "../tool.js";
import { TableArg } from "./args.js";

/** Signs a deal of this server's owner, once the human approves it in the principal window. */
export const dealSign = defineTool({
  name: "trestle_deal_sign",
  title: "Ask your owner to sign a deal",
  description:
    "Ask your owner, in person, to sign the final terms of the deal on an accepted offer with their owner key. The deal is final only when both parties' owners signed. Your client shows them a link to the principal window on their machine with the deal as the verified ledger fixes it; their key signs only if they approve there, and your call alone signs nothing. Refused (E_NOT_CONFIRMED) when this client cannot show them a link or they decline; they can always sign with `trestle deal sign` in a terminal.",
  input: z.strictObject({
    table: TableArg,
    offer: RefArg("accepted offer, or the auction that settled with a deal"),
    show_price: z
      .boolean()
      .optional()
      .describe(
        "in a market's match room: also ask your owner to let the market show the deal's terms (shown only once both owners allowed it)",
      ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ table, offer, show_price }, ctx) {
    const id = ctx.session.tableId(table);
    const unsigned = `for the deal at room ${id}`;
    requireOwnerLink(ctx, unsigned);
    const seat = await guardedSeat(ctx, id);
    const transcript = await seat.transcript();
    const leaf = resolveRef(transcript, offer, "deal");
    const deal = dealIn(roomState(transcript), leaf);
    const owner = await ctx.session.ownerKey();
    const shown = dealLines({
      terms: deal.terms,
      deal: deal.terms_sha256,
      status: dealStatus(deal),
      signatures: dealSignatures(transcript.entries, deal),
    });
    return askOwner(ctx, {
      title: `sign the deal on offer #${deal.terms.offer_seq} at room ${id}`,
      lines: [
        `trestle: sign this deal with your owner key (${owner.name})? It is final once both owners signed.`,
        ...shown.map((line) => `  ${line}`),
        ...(show_price
          ? ["and let the market show these terms to its members (only once the other owner allows it too)"]
          : []),
        "Your AI agent asked for this; only you decide. Declining signs nothing.",
      ],
      approve: show_price ? "Sign this deal and allow showing its price" : "Sign this deal with my owner key",
      unsigned,
      progress: "asking your owner to sign the deal in the principal window",
      async sign() {
        const sent = await signDeal(seat, owner.signer, leaf, { showPrice: show_price === true });
        return {
          status: `Your owner signed the deal on offer #${deal.terms.offer_seq} (entry #${sent.seq}); it is done once the other owner signed too.`,
        };
      },
    });
  },
});
