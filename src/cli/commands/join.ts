/** `trestle join`: an owner seats a bot, delegating the seat to the seat's key (and, with --endorse, signs the table's config too). */
import {
  canonicalSha256,
  CapabilityCardSchema,
  parseOrThrow,
  PublicKeySchema,
  validateConfig,
  type CapabilityCard,
} from "../../protocol/index.js";
import { duration, OWNER_FLAGS, optional, required, TABLE_FLAG } from "../args.js";
import { UsageError } from "../exit.js";
import { headRef } from "../../text/format.js";
import { readJsonFile } from "../json-file.js";
import type { Command } from "./command.js";

/** `join`: the owner signs the seat over to a seat key (created if missing). */
export const join: Command = {
  name: "join",
  summary: "seat a bot at a table (signed by its owner)",
  flags: {
    ...TABLE_FLAG,
    ...OWNER_FLAGS,
    seat: { type: "string", value: "NAME", help: "the seat to take (default $TRESTLE_SEAT)" },
    key: {
      type: "string",
      value: "FILE",
      help: "the seat key file (default <home>/seats/<seat>.json; created if missing)",
    },
    "seat-public-key": {
      type: "string",
      value: "KEY",
      help: "delegate to this public key instead (the bot keeps its key elsewhere)",
    },
    human: { type: "boolean", help: "a person operates this seat (may speak without the floor)" },
    summary: { type: "string", value: "TEXT", help: "the capability card's summary" },
    role: { type: "string", value: "TEXT", help: "the capability card's role" },
    card: { type: "string", value: "FILE", help: "the whole capability card as a JSON file" },
    ttl: {
      type: "string",
      value: "DURATION",
      help: "how long the signed join stays valid, e.g. 10m (default), 2h, 1d",
    },
    endorse: {
      type: "string",
      value: "FILE",
      help: "also sign the table's config (this file, as you reviewed it): your auto_approve and chat_approve rules count",
    },
  },
  async run(ctx) {
    const table = ctx.tableId();
    const seat = required(ctx.args, "seat", "TRESTLE_SEAT", ctx.io.env);
    const { owner, key } = await ctx.owner();
    const seatKey = await seatPublicKey(ctx, seat);
    const expires = ctx.io.clock() + duration(ctx.args, "ttl", "10m");
    const client = await ctx.table(table);
    const human = ctx.args.values.human === true;
    const endorsed = optional(ctx.args, "endorse");
    const configSha256 =
      endorsed === undefined ? undefined : canonicalSha256(validateConfig(readJsonFile(endorsed, "the config")));
    const joined = await client.join(key.signer, {
      seat,
      owner,
      seatKey,
      human,
      card: card(ctx.args.values),
      expires,
      ...(configSha256 ? { configSha256 } : {}),
    });
    ctx.out.result(
      `${ctx.out.c.bold(seat)} joined ${table} for ${owner} as entry #${joined.seq} (head ${headRef(joined.head)})`,
      joined,
    );
  },
};

async function seatPublicKey(ctx: Parameters<Command["run"]>[0], seat: string): Promise<string> {
  const given = optional(ctx.args, "seat-public-key");
  if (given !== undefined) {
    if (!PublicKeySchema.safeParse(given).success)
      throw new UsageError("--seat-public-key must be a 43-char base64url Ed25519 key");
    return given;
  }
  return (await ctx.newSeatKey(seat)).signer.publicKeyText;
}

function card(values: Record<string, unknown>): CapabilityCard {
  if (typeof values.card === "string")
    return parseOrThrow(CapabilityCardSchema, readJsonFile(values.card, "the card"), "capability card");
  const out: CapabilityCard = {};
  if (typeof values.summary === "string") out.summary = values.summary;
  if (typeof values.role === "string") out.role = values.role;
  return parseOrThrow(CapabilityCardSchema, out, "capability card");
}
