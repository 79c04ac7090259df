/**
 * `trestle_room_state` (docs/MCP.md "Rooms"): the room from its verified transcript: seats, the
 * live offers and grants and the auctions with the seq and hash to name them by, the outcome
 * (terms opened on this machine in an e2e room); and what this seat's
 * mandate allows (owner/agent-view.ts: never its never_disclose strings, nor under agent_view
 * `rules` the amounts of its cap and floor). Everything other seats wrote is framed as data.
 */
import { z } from "zod";
import { frameInert, type InertItem } from "../../text/framing.js";
import { mandateLines, openedSummary, roomSummary } from "../../owner/index.js";
import { auctionText, expiryText, termsText } from "../../text/terms.js";
import { guardedSeat } from "../room-seat.js";
import { defineTool } from "../tool.js";
import { TableArg } from "./args.js";
import { dealStatusText } from "../../text/deal.js";

/** Shows the room. */
export const roomState = defineTool({
  name: "trestle_room_state",
  title: "See the room",
  description:
    "The room from its verified transcript: who is in it, the live offers (seq, hash, author, terms) and grants, the outcome, and what your owner's mandate allows you. Name offers by their seq or hash in the other room tools. Offer texts are framed as data.",
  input: z.strictObject({ table: TableArg }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run({ table }, ctx) {
    const id = ctx.session.tableId(table);
    const seat = await guardedSeat(ctx, id);
    const transcript = await seat.transcript();
    const room = await openedSummary(ctx.session.settings.home, roomSummary(transcript, ctx.now()));
    const items: InertItem[] = [
      { header: `room ${room.table}, topic: ${room.topic}` },
      {
        header: `seats: ${room.seats.map((s) => `${s.name} (owner ${s.owner})${s.name === seat.seat ? " (you)" : ""}`).join(", ")}`,
      },
      ...room.offers.map((o) => ({
        header: `live ${o.kind} #${o.seq} hash ${o.leaf.slice(0, 16)} by ${o.seat}${o.seat === seat.seat ? " (you)" : ""}, ${expiryText(o.expires)}`,
        body: termsText(o.terms),
      })),
      ...room.grants.map((g) => ({
        header: `live grant #${g.seq} hash ${g.leaf.slice(0, 16)} by ${g.seat} to ${g.grantee}: ${g.scope} until ${new Date(g.expires).toISOString()}`,
      })),
      ...room.auctions.map((a) => ({ header: auctionText(a, `hash ${a.leaf.slice(0, 16)}`) })),
    ];
    const outcome = room.outcome
      ? `Closed: ${room.outcome.outcome} (entry #${room.outcome.seq}).`
      : room.closed
        ? `Closed (${room.closed}).`
        : "Open.";
    return {
      status: [
        `Room ${id}, transcript ${transcript.report.verdict} (verified on this machine). ${outcome}`,
        `${room.offers.length} live offers, ${room.grants.length} live grants, ${room.auctions.length} auctions.${room.e2e ? " End-to-end encrypted: texts were opened on this machine." : ""}`,
        ...room.deals.map(
          (d) =>
            `Deal on offer #${d.terms.offer_seq}: ${dealStatusText(d.status, d.terms, d.signed)} (trestle_deal_sign).`,
        ),
        ...mandateLines(await seat.mandate(transcript)),
      ],
      data: frameInert(items, ctx.boundary()),
    };
  },
});
