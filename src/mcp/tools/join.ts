/**
 * `trestle_join`: the owner seats this server's own seat key at a table, with the capability card
 * from TRESTLE_CARD_FILE (no argument can change it). The seat key file is created (mode 0600)
 * if it does not exist yet, as `trestle join` does.
 */
import { z } from "zod";
import { holdOwnerSession } from "../owner-session.js";
import { defineTool } from "../tool.js";
import { TableArg } from "./args.js";

/** How long a join the server signs stays valid (trestle_join, trestle_invite): it is submitted at once, so a short window is enough. */
export const JOIN_TTL_MS = 10 * 60_000;

/** Seats this server's seat at a table, signed by its owner key. */
export const join = defineTool({
  name: "trestle_join",
  title: "Take your seat at a table",
  description:
    "Seat yourself at a table: your owner's key delegates your seat (TRESTLE_SEAT) to your seat key, with the capability card your owner wrote in TRESTLE_CARD_FILE. The table becomes the active one.",
  input: z.strictObject({ table: TableArg }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ table }, ctx) {
    const { session } = ctx;
    const id = session.tableId(table);
    const owner = await session.ownerKey();
    const card = session.card();
    const { identity: seat, created } = await session.seatKeyCreating();
    const client = await session.client(id);
    const joined = await client.join(owner.signer, {
      seat: seat.name,
      owner: owner.name,
      seatKey: seat.signer.publicKeyText,
      card,
      expires: ctx.now() + JOIN_TTL_MS,
    });
    const using = session.use(id);
    const presence = await holdOwnerSession(ctx, id);
    return {
      status: [
        `Seat ${seat.name} joined table ${id} for owner ${owner.name} as entry #${joined.seq}; ${using}.`,
        ...(created ? [`Created the seat key ${seat.path} (mode 0600).`] : []),
        `Capability card: ${session.settings.cardFile ?? "none configured (TRESTLE_CARD_FILE), so an empty card"}.`,
        presence === "live"
          ? `Owner session held for ${owner.name}: proposals on their resources can wait for their approval.`
          : `No owner session (${presence}).`,
        "Next: trestle_read, then trestle_wait for your turn.",
      ],
    };
  },
});
