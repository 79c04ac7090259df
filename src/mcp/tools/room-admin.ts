/**
 * Rooms signed with this server's owner key (docs/MCP.md "Rooms"): create a room, invite (a link
 * carrying the relay key this home pinned, and a code), join this server's seat by an invite, and
 * eject a seat from a room this owner created. A join by invite pins the relay to the key the
 * link names before anything else.
 */
import { z } from "zod";
import { createRoom, ejectSeat, issueInvite, joinByInvite, roomConfigFor } from "../../owner/index.js";
import { InviteIdSchema, LIMITS, SeatNameSchema, TableIdSchema } from "../../protocol/index.js";
import { defineTool } from "../tool.js";
import { TableArg } from "./args.js";
import { JOIN_TTL_MS } from "./join.js";

/** `trestle_room_create`. */
export const roomCreate = defineTool({
  name: "trestle_room_create",
  title: "Create a room",
  description:
    "Open a room (an open table where owners' agents negotiate) created by your owner, who is its only listed owner; others come by invite (trestle_room_invite). The room becomes the active table.",
  input: z.strictObject({
    table: TableIdSchema.describe("the room's id, 3-64 of [a-z0-9._-]"),
    topic: z.string().min(1).max(LIMITS.topic_chars).describe("what the room is about"),
    max_parties: z.int().min(1).max(LIMITS.owners).optional().describe("how many owners invites may admit"),
    e2e: z
      .boolean()
      .optional()
      .describe(
        "end-to-end encrypted: messages and terms text are sealed under a room key that only invite links carry (the topic is not)",
      ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run({ table, topic, max_parties, e2e }, ctx) {
    const owner = await ctx.session.ownerKey();
    const config = roomConfigFor({
      id: table,
      topic,
      owner: owner.name,
      ownerKey: owner.signer.publicKeyText,
      ...(max_parties === undefined ? {} : { maxParties: max_parties }),
      e2e: e2e === true,
    });
    const client = await ctx.session.client(table);
    const created = await createRoom(client, owner.signer, owner.name, config, ctx.session.settings.home);
    const using = ctx.session.use(table);
    return {
      status: [
        `Created room ${table} (head #${created.head.seq}) for owner ${owner.name}; ${using}.`,
        ...(e2e ? ["It is end-to-end encrypted: the room key stays on this machine and in invite links."] : []),
        "Next: trestle_join to take your seat, trestle_room_invite to invite the other side.",
      ],
    };
  },
});

/** `trestle_room_invite`. */
export const roomInvite = defineTool({
  name: "trestle_room_invite",
  title: "Invite an owner into the room",
  description:
    "Issue an invite to a room your owner created: a link (carrying this relay's key, so the invitee's client checks it first) and a short code, single use, valid for ttl_minutes. With `rotate`, the named invite stops working.",
  input: z.strictObject({
    table: TableArg,
    ttl_minutes: z
      .int()
      .min(1)
      .max(10_080)
      .default(1440)
      .describe("how long the invite stays valid (default a day, at most 7 days)"),
    rotate: InviteIdSchema.optional().describe("an invite to replace (its code stops working)"),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ table, ttl_minutes, rotate }, ctx) {
    const id = ctx.session.tableId(table);
    const owner = await ctx.session.ownerKey();
    const issued = await issueInvite(await ctx.session.client(id), owner.signer, {
      ttlMs: ttl_minutes * 60_000,
      clock: () => ctx.now(),
      home: ctx.session.settings.home,
      ...(rotate === undefined ? {} : { replaces: rotate }),
    });
    return {
      status: [
        `Invite ${issued.invite} to room ${id} (entry #${issued.seq}), valid until ${new Date(issued.expires).toISOString()}.`,
        `Link: ${issued.link}`,
        `Code: ${issued.code}`,
        "Give the link to the owner you invite (not to the room): whoever holds it can join once.",
        ...(issued.link.includes("&room_key=")
          ? [
              "The link carries the room key: whoever holds it can read the whole room, now and later. The code alone does not.",
            ]
          : []),
      ],
    };
  },
});

/** `trestle_room_join`. */
export const roomJoin = defineTool({
  name: "trestle_room_join",
  title: "Join a room by invite",
  description:
    "Seat yourself in a room by its invite link (or code, on this server's relay): your owner's key signs the join, with the capability card your owner wrote. The relay must serve the key the link names. The room becomes the active table.",
  input: z.strictObject({
    invite: z.string().min(1).max(400).describe("the invite link (…/invites#code=…&relay_key=…) or its code XXXX-XXXX"),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run({ invite }, ctx) {
    const { session } = ctx;
    const owner = await session.ownerKey();
    const { identity: seat, created } = await session.seatKeyCreating();
    const { client, joined } = await joinByInvite({
      invite,
      relay: session.settings.url,
      home: session.settings.home,
      owner: owner.name,
      ownerSigner: owner.signer,
      seat: seat.name,
      seatKey: seat.signer.publicKeyText,
      card: session.card(),
      ttlMs: JOIN_TTL_MS,
      clock: () => ctx.now(),
      onFirstUse: (url, key) => session.deps.log(`pinned relay ${url} to key ${key} (from the invite link)`),
    });
    const using = session.use(client.table);
    return {
      status: [
        `Seat ${seat.name} joined room ${client.table} for owner ${owner.name} as entry #${joined.seq}; ${using}.`,
        ...(created ? [`Created the seat key ${seat.path} (mode 0600).`] : []),
        "Next: trestle_room_state, then trestle_wait.",
      ],
    };
  },
});

/** `trestle_room_eject`. */
export const roomEject = defineTool({
  name: "trestle_room_eject",
  title: "Eject a seat from the room",
  description: "Remove a seat from a room your owner created; the ledger records it and that owner cannot join again.",
  input: z.strictObject({ table: TableArg, seat: SeatNameSchema.describe("the seat to remove") }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  async run({ table, seat }, ctx) {
    const id = ctx.session.tableId(table);
    const owner = await ctx.session.ownerKey();
    const ejected = await ejectSeat(await ctx.session.client(id), owner.signer, seat);
    return { status: `Seat ${seat} ejected from ${id} as entry #${ejected.seq}.` };
  },
});
