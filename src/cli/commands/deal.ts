/**
 * `trestle deal sign|show|verify` (docs/ROOMS.md "Deals"): the owner signs the final terms of an
 * accepted offer with the owner key on this machine and the seat records the signature (in a
 * match's room, with `--show-price`, also the consent to show them in the market); anyone in
 * the room prints the deal certificate (`--json`: the self-contained file); and anyone checks such
 * a file offline with nothing but the relay key (pinned here, or --relay-key).
 */
import { checkDealCertificate, dealCertificate, readTranscript, resolveRef, signDeal } from "../../owner/index.js";
import { PinStore } from "../../client/node.js";
import { PublicKeySchema } from "../../protocol/index.js";
import { dealLines } from "../../text/deal.js";
import { optional, OWNER_FLAGS, positionals, SEAT_FLAGS, TABLE_FLAG } from "../args.js";
import type { Context } from "../context.js";
import { EXIT, UsageError } from "../exit.js";
import { readJsonFile } from "../json-file.js";
import { guardedSeat, printSent, unrefuted } from "../room.js";
import type { Command } from "./command.js";

/** `deal sign <offer>`: the owner (--owner) signs the deal on an accepted offer; the seat (--seat) records it. */
export const dealSign: Command = {
  name: "deal sign",
  summary: "sign the deal on an accepted offer with your owner key (final once both owners signed)",
  args: "<offer>",
  flags: {
    ...TABLE_FLAG,
    ...SEAT_FLAGS,
    ...OWNER_FLAGS,
    "show-price": {
      type: "boolean",
      help: "in a market's match room: also let the market show the deal's terms (shown only once both owners allowed it)",
    },
  },
  async run(ctx) {
    const [ref] = positionals(ctx.args, ["offer"]);
    const seat = await guardedSeat(ctx);
    const leaf = resolveRef(unrefuted(await seat.transcript()), ref!, "deal");
    const { key } = await ctx.owner();
    const showPrice = ctx.args.values["show-price"] === true;
    printSent(
      ctx,
      showPrice
        ? "your signature of the deal, and your consent to show its price in the market"
        : "your signature of the deal",
      await signDeal(seat, key.signer, leaf, { showPrice }),
    );
  },
};

/** `deal show <offer>`: the deal certificate, pending or done; --json: the certificate file. */
export const dealShow: Command = {
  name: "deal show",
  summary: "print the deal certificate of an accepted offer (--json: the file trestle deal verify checks)",
  args: "<offer>",
  flags: { ...TABLE_FLAG, ...SEAT_FLAGS, ...OWNER_FLAGS },
  async run(ctx) {
    const [ref] = positionals(ctx.args, ["offer"]);
    const client = await ctx.table(ctx.tableId());
    const reader = await ctx.reader();
    const leaf = resolveRef(unrefuted(await readTranscript(client, reader)), ref!, "deal");
    const certificate = await dealCertificate(client, reader, leaf);
    ctx.out.result(dealLines(certificate), certificate);
  },
};

/** `deal verify <file>`: exit 0 when the certificate holds (and says whether the deal is done), 4 when it does not. */
export const dealVerify: Command = {
  name: "deal verify",
  summary: "check a deal certificate offline with nothing but the relay key",
  args: "<deal.json>",
  flags: {
    "relay-key": {
      type: "string",
      value: "KEY",
      help: "the relay key to trust (default: the certificate's, if pinned here)",
    },
  },
  async run(ctx) {
    const [path] = positionals(ctx.args, ["deal.json"]);
    const value = readJsonFile(path!, "the deal certificate");
    const relayKey = relayKeyFor(ctx, value);
    const check = await checkDealCertificate(value, relayKey);
    if (!check.ok) {
      ctx.out.result([`REFUTED: ${check.reason}`], { verdict: "REFUTED", reason: check.reason });
      return EXIT.REFUTED;
    }
    ctx.out.result([`CLEAN: the certificate holds under relay key ${relayKey}`, ...dealLines(check.certificate)], {
      verdict: "CLEAN",
      status: check.certificate.status,
      deal: check.certificate.deal,
    });
    return EXIT.OK;
  },
};

/** --relay-key, else the certificate's relay key when this home pinned it; a usage error otherwise. */
function relayKeyFor(ctx: Context, value: unknown): string {
  const given = optional(ctx.args, "relay-key");
  if (given !== undefined) {
    if (!PublicKeySchema.safeParse(given).success)
      throw new UsageError("--relay-key must be a 43-char base64url Ed25519 key");
    return given;
  }
  const named =
    typeof value === "object" && value !== null && "relay" in value ? PublicKeySchema.safeParse(value.relay) : null;
  if (named?.success && new PinStore(ctx.home).pins(named.data)) return named.data;
  throw new UsageError("the certificate's relay key is not pinned here; pass --relay-key with a key you trust");
}

/** The deal verbs that are not a room write (deal sign is the deal_sign kind's verb), in help order. */
export const DEAL: readonly Command[] = [dealShow, dealVerify];
