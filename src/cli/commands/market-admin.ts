/**
 * The market verbs its owners sign (docs/SPEC.md §5.15, docs/CLI.md "Markets"): the creator opens a
 * market and admits members, each by an invite bound to the member's owner key (joined with no
 * code) or by a code as for rooms; a member joins either way, seating a bot with its own key.
 */
import { marketConfigFor } from "../../client/node.js";
import { issueInvite, joinByInvite } from "../../owner/index.js";
import { PublicKeySchema, type JoinResponse } from "../../protocol/index.js";
import { duration, integer, OWNER_FLAGS, optional, positionals, required, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import { UsageError } from "../exit.js";
import { categoriesFlag } from "../market.js";
import { headRef } from "../../text/format.js";
import type { Command } from "./command.js";

/** `market create`: opens a market created by --owner, with its categories and rules. */
export const marketCreate: Command = {
  name: "market create",
  summary: "open a market where members' agents list offers and wants and are matched (you are its creator)",
  flags: {
    ...TABLE_FLAG,
    ...OWNER_FLAGS,
    topic: { type: "string", value: "TEXT", help: "what the market is for" },
    categories: {
      type: "string",
      value: "LIST",
      help: "the categories listings may use, comma-separated, e.g. baby-gear,books",
    },
    "listing-ttl": {
      type: "string",
      value: "DURATION",
      help: "the longest a listing may live, e.g. 2h, 7d (default 7d, at least 1m, at most 90d)",
    },
    "listings-per-member": {
      type: "string",
      value: "N",
      help: "live listings one member may hold (default 10, at most 100)",
    },
    "max-members": {
      type: "string",
      value: "N",
      help: "members the market admits in its life (default and at most 1000)",
    },
    "max-entries": {
      type: "string",
      value: "N",
      help: "close after this many entries (default 20000, the relay's ledger limit)",
    },
    public: { type: "boolean", help: "anyone may read and search it without a signature (members alone list)" },
  },
  async run(ctx) {
    const id = ctx.tableId();
    const topic = required(ctx.args, "topic");
    const categories = categoriesFlag(ctx.args);
    const listingTtlMs = duration(ctx.args, "listing-ttl", "7d");
    const listingsPerMember = integer(ctx.args, "listings-per-member", 10)!;
    const maxMembers = integer(ctx.args, "max-members");
    const maxEntries = integer(ctx.args, "max-entries");
    const { owner, key } = await ctx.owner();
    const config = marketConfigFor({
      id,
      topic,
      owner,
      ownerKey: key.signer.publicKeyText,
      categories,
      listingTtlMs,
      listingsPerMember,
      ...(maxMembers === undefined ? {} : { maxMembers }),
      ...(maxEntries === undefined ? {} : { maxEntries }),
      public: ctx.args.values.public === true,
    });
    const { head } = await (await ctx.table(id)).create(key.signer, owner, config);
    ctx.out.result(
      [
        `created market ${ctx.out.c.bold(id)} (head ${headRef(head)}); seat your own bot with trestle join --table ${id}, and admit members with trestle market admit --table ${id} --key <their owner key> (or --code)`,
      ],
      { table: id, head, public: config.public === true },
    );
  },
};

/** `market admit`: the creator admits one member: an invite bound to its owner key (--key), or a code as for rooms (--code). */
export const marketAdmit: Command = {
  name: "market admit",
  summary: "admit a member to your market: by their owner key (they join with no code) or by a code",
  flags: {
    ...TABLE_FLAG,
    ...OWNER_FLAGS,
    key: {
      type: "string",
      value: "KEY",
      help: "the member's owner public key: only that key may use the invite, and it needs no code",
    },
    code: {
      type: "boolean",
      help: "an invite by link and code instead, for whoever holds it (as trestle room invite)",
    },
    ttl: {
      type: "string",
      value: "DURATION",
      help: "how long the invite stays valid, e.g. 30m, 2h, 1d (default 1d, at most 7d)",
    },
  },
  async run(ctx) {
    const memberKey = optional(ctx.args, "key");
    const byCode = ctx.args.values.code === true;
    if ((memberKey === undefined) === !byCode)
      throw new UsageError("give exactly one of --key <their owner public key> and --code");
    if (memberKey !== undefined && !PublicKeySchema.safeParse(memberKey).success)
      throw new UsageError(
        "--key must be the member's owner public key: 43 base64url characters (trestle keygen prints it)",
      );
    const client = await ctx.table(ctx.tableId());
    const { key } = await ctx.owner();
    const issued = await issueInvite(client, key.signer, {
      ttlMs: duration(ctx.args, "ttl", "1d"),
      clock: ctx.io.clock,
      ...(memberKey === undefined ? {} : { ownerKey: memberKey }),
    });
    const c = ctx.out.c;
    const until = `valid until ${new Date(issued.expires).toISOString()}`;
    const lines =
      memberKey === undefined
        ? [
            `invite ${issued.invite} (entry #${issued.seq}), ${until}`,
            `  link: ${c.bold(issued.link)}`,
            `  code: ${c.bold(issued.code)}  (with --relay ${client.http.url})`,
            "send the link to the member you admit; whoever holds it joins with trestle market join <link>",
          ]
        : [
            `invite ${issued.invite} (entry #${issued.seq}) for owner key ${memberKey}, ${until}`,
            `the member joins with: ${c.bold(`trestle market join --table ${client.table} --invite ${issued.invite} --relay ${client.http.url}`)} --owner <name> --seat <seat>`,
            `  or by the link, which carries the relay's key: ${issued.link}`,
            "only that owner key can use it: it need not be kept secret",
          ];
    ctx.out.result(lines, {
      table: client.table,
      ...issued,
      ...(memberKey === undefined ? {} : { owner_key: memberKey }),
    });
  },
};

/** `market join [link | code]`: a member seats a bot in a market, signing with its own owner key: by the invite bound to that key (--table, --invite), or by a link or code. */
export const marketJoin: Command = {
  name: "market join",
  summary:
    "join a market you were admitted to, seating a bot for --owner: --invite (bound to your key) or a link or code",
  args: "[link | code]",
  flags: {
    ...TABLE_FLAG,
    invite: {
      type: "string",
      value: "INVITE",
      help: "the invite bound to your owner key (trestle market admit --key printed it); with --table",
    },
    ...OWNER_FLAGS,
    ...SEAT_FLAGS,
    summary: { type: "string", value: "TEXT", help: "the capability card's summary" },
    ttl: { type: "string", value: "DURATION", help: "how long the signed join stays valid (default 10m)" },
  },
  async run(ctx) {
    const [given] = positionals(ctx.args, ["link | code"], 0);
    const invite = optional(ctx.args, "invite");
    if ((given === undefined) === (invite === undefined))
      throw new UsageError(
        "give either an invite link or code, or --invite with --table (an invite bound to your key)",
      );
    const seat = required(ctx.args, "seat", "TRESTLE_SEAT", ctx.io.env);
    const { owner, key } = await ctx.owner();
    const seatKey = (await ctx.newSeatKey(seat)).signer.publicKeyText;
    const summary = optional(ctx.args, "summary");
    const card = summary === undefined ? {} : { summary };
    const ttlMs = duration(ctx.args, "ttl", "10m");
    let table: string;
    let joined: JoinResponse;
    if (given !== undefined) {
      const byCode = await joinByInvite({
        invite: given,
        relay: ctx.relayUrl,
        home: ctx.home,
        owner,
        ownerSigner: key.signer,
        seat,
        seatKey,
        card,
        ttlMs,
        clock: ctx.io.clock,
        onFirstUse: ctx.firstUse,
      });
      [table, joined] = [byCode.client.table, byCode.joined];
    } else {
      const client = await ctx.table(ctx.tableId());
      [table, joined] = [
        client.table,
        await client.join(key.signer, {
          seat,
          owner,
          seatKey,
          card,
          expires: ctx.io.clock() + ttlMs,
          newcomer: { invite: invite! },
        }),
      ];
    }
    ctx.out.result(
      `${ctx.out.c.bold(seat)} joined market ${table} for ${owner} as entry #${joined.seq} (head ${headRef(joined.head)})`,
      { table, ...joined },
    );
  },
};

/** The owner-side market verbs, in help order. */
export const MARKET_ADMIN: readonly Command[] = [marketCreate, marketAdmit, marketJoin];
