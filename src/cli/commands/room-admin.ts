/**
 * The room verbs an owner signs (docs/SPEC.md §5.10): create a room, invite (a link carrying the
 * relay key this home pinned, and a short code), join by link or code with the owner's own key,
 * eject a seat; and `room show`, the room as the verified transcript has it.
 */
import {
  createRoom,
  ejectSeat,
  issueInvite,
  joinByInvite,
  openedSummary,
  roomConfigFor,
  roomKeyPath,
  roomSummary,
  readTranscript,
} from "../../owner/index.js";
import { auctionText, expiryText, offerTermsText, shortHash } from "../../text/terms.js";
import { duration, integer, OWNER_FLAGS, optional, positionals, required, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import { headRef } from "../../text/format.js";
import { unrefuted } from "../room.js";
import { safeLine } from "../../text/framing.js";
import type { Command } from "./command.js";
import { dealStatusText } from "../../text/deal.js";

/** `room create`: opens a room (topology open, joined by invite) created by --owner. */
export const roomCreate: Command = {
  name: "room create",
  summary: "open a room for owners' agents to negotiate in (you are its creator)",
  flags: {
    ...TABLE_FLAG,
    ...OWNER_FLAGS,
    topic: { type: "string", value: "TEXT", help: "what the room is about" },
    "max-entries": { type: "string", value: "N", help: "close after this many entries (default 500)" },
    "max-parties": { type: "string", value: "N", help: "how many owners invites may admit (default: as many as fit)" },
    e2e: {
      type: "boolean",
      help: "end-to-end encrypted: bodies and terms text sealed under a room key that only invite links carry",
    },
  },
  async run(ctx) {
    const id = ctx.tableId();
    const { owner, key } = await ctx.owner();
    const maxEntries = integer(ctx.args, "max-entries");
    const maxParties = integer(ctx.args, "max-parties");
    const config = roomConfigFor({
      id,
      topic: required(ctx.args, "topic"),
      owner,
      ownerKey: key.signer.publicKeyText,
      ...(maxEntries === undefined ? {} : { maxEntries }),
      ...(maxParties === undefined ? {} : { maxParties }),
      e2e: ctx.args.values.e2e === true,
    });
    const client = await ctx.table(id);
    const { head } = await createRoom(client, key.signer, owner, config, ctx.home);
    const sealed =
      config.room?.e2e === true
        ? [
            `end-to-end encrypted: the room key is in ${roomKeyPath(ctx.home, id)} and in every invite link; anyone who holds either reads the room`,
          ]
        : [];
    ctx.out.result(
      [
        `created room ${ctx.out.c.bold(id)} (head ${headRef(head)}); invite others with trestle room invite --table ${id}`,
        ...sealed,
      ],
      { table: id, head, e2e: sealed.length > 0 },
    );
  },
};

/** `room invite`: the creator issues (or rotates) an invite: a link and a code. */
export const roomInvite: Command = {
  name: "room invite",
  summary: "invite an owner into your room: prints a link (with the relay's key) and a code",
  flags: {
    ...TABLE_FLAG,
    ...OWNER_FLAGS,
    ttl: {
      type: "string",
      value: "DURATION",
      help: "how long the invite stays valid, e.g. 30m, 2h, 1d (default 1d, at most 7d)",
    },
    rotate: { type: "string", value: "INVITE", help: "replace this invite (its code stops working)" },
  },
  async run(ctx) {
    const client = await ctx.table(ctx.tableId());
    const { key } = await ctx.owner();
    const rotate = optional(ctx.args, "rotate");
    const issued = await issueInvite(client, key.signer, {
      ttlMs: duration(ctx.args, "ttl", "1d"),
      clock: ctx.io.clock,
      home: ctx.home,
      ...(rotate === undefined ? {} : { replaces: rotate }),
    });
    const sealed = issued.link.includes("&room_key=");
    const c = ctx.out.c;
    ctx.out.result(
      [
        `invite ${issued.invite} (entry #${issued.seq}), valid until ${new Date(issued.expires).toISOString()}`,
        `  link: ${c.bold(issued.link)}`,
        `  code: ${c.bold(issued.code)}  (with --relay ${client.http.url})`,
        "send the link to the owner you invite; it carries this relay's key, so their client checks it first",
        ...(sealed
          ? [
              "the link also carries the room key (after #, never sent to a server): whoever holds it reads the room, so send it only to the owner you invite; the code alone does not carry it",
            ]
          : []),
      ],
      issued,
    );
  },
};

/** `room join <link | code>`: the owner seats a bot in the room an invite opens, signing with its own key (a link names its relay; a code uses --relay). */
export const roomJoin: Command = {
  name: "room join",
  summary: "join a room by its invite link (or code), seating a bot for --owner",
  args: "<link | code>",
  flags: {
    ...OWNER_FLAGS,
    ...SEAT_FLAGS,
    summary: { type: "string", value: "TEXT", help: "the capability card's summary" },
    ttl: { type: "string", value: "DURATION", help: "how long the signed join stays valid (default 10m)" },
  },
  async run(ctx) {
    const [invite] = positionals(ctx.args, ["link | code"]);
    const seat = required(ctx.args, "seat", "TRESTLE_SEAT", ctx.io.env);
    const { owner, key } = await ctx.owner();
    const seatKey = await ctx.newSeatKey(seat);
    const summary = optional(ctx.args, "summary");
    const { client, joined } = await joinByInvite({
      invite: invite!,
      relay: ctx.relayUrl,
      home: ctx.home,
      owner,
      ownerSigner: key.signer,
      seat,
      seatKey: seatKey.signer.publicKeyText,
      card: summary === undefined ? {} : { summary },
      ttlMs: duration(ctx.args, "ttl", "10m"),
      clock: ctx.io.clock,
      onFirstUse: ctx.firstUse,
    });
    ctx.out.result(
      `${ctx.out.c.bold(seat)} joined room ${client.table} for ${owner} as entry #${joined.seq} (head ${headRef(joined.head)})`,
      { table: client.table, ...joined },
    );
  },
};

/** `room eject <seat>`: the creator removes a seat; the ledger records it. */
export const roomEject: Command = {
  name: "room eject",
  summary: "remove a seat from your room (recorded as an entry)",
  args: "<seat>",
  flags: { ...TABLE_FLAG, ...OWNER_FLAGS },
  async run(ctx) {
    const [seat] = positionals(ctx.args, ["seat"]);
    const client = await ctx.table(ctx.tableId());
    const { key } = await ctx.owner();
    const ejected = await ejectSeat(client, key.signer, seat!);
    ctx.out.result(`${seat} ejected as entry #${ejected.seq} (head ${headRef(ejected.head)})`, ejected);
  },
};

/** `room show`: who is in the room, the live offers and grants and the auctions (by seq and hash), each deal pending or done, the outcome; terms opened in an e2e room. */
export const roomShow: Command = {
  name: "room show",
  summary: "the room from its verified transcript: seats, live offers and grants, auctions, outcome",
  flags: { ...TABLE_FLAG, ...SEAT_FLAGS, ...OWNER_FLAGS },
  async run(ctx) {
    const client = await ctx.table(ctx.tableId());
    const transcript = unrefuted(await readTranscript(client, await ctx.reader()));
    const room = await openedSummary(ctx.home, roomSummary(transcript, ctx.io.clock()));
    const line = (text: string) => safeLine(text, 1000);
    const lines = [
      `room ${room.table}: ${line(room.topic)} (${transcript.report.verdict}; created by ${room.creator})`,
      `seats: ${room.seats.map((s) => `${s.name} (${s.owner})`).join(", ") || "none"}`,
      ...(room.offers.length === 0
        ? ["no live offers"]
        : room.offers.map((o) => `offer #${o.seq} ${shortHash(o.leaf)} by ${o.seat}: ${offerTermsText(o)}`)),
      ...room.grants.map(
        (g) =>
          `grant #${g.seq} ${shortHash(g.leaf)} by ${g.seat} to ${g.grantee}: ${line(g.scope)}, ${expiryText(g.expires)}`,
      ),
      ...room.auctions.map((a) => auctionText(a, shortHash(a.leaf))),
      ...room.deals.map(
        (d) =>
          `deal on offer #${d.terms.offer_seq} ${shortHash(d.leaf)}: ${dealStatusText(d.status, d.terms, d.signed)}`,
      ),
      ...(room.e2e ? ["end-to-end encrypted: bodies and terms text are sealed under the room key"] : []),
      room.outcome
        ? `outcome: ${room.outcome.outcome}${room.outcome.offer ? ` on offer ${shortHash(room.outcome.offer)}` : ""}${room.outcome.auction ? ` in auction ${shortHash(room.outcome.auction)}` : ""} (entry #${room.outcome.seq})`
        : room.closed
          ? `closed (${room.closed})`
          : "open",
    ];
    ctx.out.result(lines, { ...room, verdict: transcript.report.verdict });
  },
};

/** Every owner-side room verb, in help order. */
export const ROOM_ADMIN: readonly Command[] = [roomCreate, roomInvite, roomJoin, roomEject, roomShow];
